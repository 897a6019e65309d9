package dev.faro.join.workload;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The join's tuple: 16 bytes, an 8-byte key and an 8-byte record id, little-endian, as in the thesis (§3.4.1).
 *
 * <pre>
 *  0               8               16
 *  +---------------+---------------+
 *  |   key (8 B)   |   rid (8 B)   |   tuple i at i * 16
 *  +---------------+---------------+
 * </pre>
 *
 * <p>Also the join's result checksum: the order-independent sum, over all matches, of {@link #pairHash}.
 */
public final class Tuples {

    public static final int KEY_OFFSET = 0;
    public static final int RID_OFFSET = 8;
    public static final int TUPLE_LENGTH = 16;

    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private Tuples() {}

    public static long key(MemorySegment tuples, long index) {
        return tuples.get(LONG, index * TUPLE_LENGTH + KEY_OFFSET);
    }

    public static long rid(MemorySegment tuples, long index) {
        return tuples.get(LONG, index * TUPLE_LENGTH + RID_OFFSET);
    }

    public static void set(MemorySegment tuples, long index, long key, long rid) {
        tuples.set(LONG, index * TUPLE_LENGTH + KEY_OFFSET, key);
        tuples.set(LONG, index * TUPLE_LENGTH + RID_OFFSET, rid);
    }

    /** What one match (inner rid, outer rid) adds to the checksum; the sum does not depend on the match order. */
    public static long pairHash(long innerRid, long outerRid) {
        return (innerRid + 1) * 0x9E3779B97F4A7C15L ^ (outerRid + 1) * 0xC2B2AE3D27D4EB4FL;
    }
}
