package dev.faro.shuffle.operator;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link Partitioner#hashLongKey}: the tuple's first 8 bytes, {@link Partitioner#mix mixed}, modulo the group count.
 * A power-of-two count takes a mask instead of the division (the same result). The vector method ({@link #groups})
 * is a loop of its own: through the inherited one, which calls {@link #group} per tuple, a worker JVM of {@code faro
 * bench shuffle} left the segment's bounds check out of line (JFR: {@code checkBounds} in 30% of a SHUFFLE thread's
 * samples), though a micro-benchmark inlined it. Data path: allocation-free.
 */
final class LongKeyPartitioner implements Partitioner {

    private static final ValueLayout.OfLong KEY = ValueLayout.JAVA_LONG_UNALIGNED;

    private final int groups;
    /** {@code groups - 1} when {@code groups} is a power of two, else -1. */
    private final long mask;

    LongKeyPartitioner(int groups) {
        this.groups = groups;
        this.mask = Integer.bitCount(groups) == 1 ? groups - 1 : -1;
    }

    @Override
    public int group(MemorySegment tuples, long offset) {
        long hash = Partitioner.mix(tuples.get(KEY, offset));
        return mask >= 0 ? (int) (hash & mask) : (int) Long.remainderUnsigned(hash, groups);
    }

    @Override
    public void groups(MemorySegment tuples, long offset, int tupleBytes, int count, int[] groupsOut) {
        if (mask >= 0) {
            for (int i = 0; i < count; i++) {
                groupsOut[i] = (int) (Partitioner.mix(tuples.get(KEY, offset + (long) i * tupleBytes)) & mask);
            }
        } else {
            for (int i = 0; i < count; i++) {
                long hash = Partitioner.mix(tuples.get(KEY, offset + (long) i * tupleBytes));
                groupsOut[i] = (int) Long.remainderUnsigned(hash, groups);
            }
        }
    }
}
