package dev.faro.shuffle.operator;

import java.lang.foreign.MemorySegment;

/** Maps a fixed-width tuple to a transmission group. Data path: must not allocate. */
@FunctionalInterface
public interface Partitioner {

    /** The group of the tuple at {@code offset} in {@code tuples}, in [0, groups). */
    int group(MemorySegment tuples, long offset);

    /**
     * The groups of {@code count} tuples of {@code tupleBytes} bytes each, starting at {@code offset}, into
     * {@code groupsOut[0 .. count)}: a vector at a time, so that one tuple's hash overlaps the next one's. The default
     * calls {@link #group} per tuple; the result must equal it.
     */
    default void groups(MemorySegment tuples, long offset, int tupleBytes, int count, int[] groupsOut) {
        for (int i = 0; i < count; i++) {
            groupsOut[i] = group(tuples, offset + (long) i * tupleBytes);
        }
    }

    /** Hashes the tuple's first 8 bytes (a long key) into {@code groups} groups (a murmur3 finalizer, then modulo). */
    static Partitioner hashLongKey(int groups) {
        if (groups < 1) {
            throw new IllegalArgumentException("groups must be positive: groups=" + groups);
        }
        return new LongKeyPartitioner(groups);
    }

    /** The murmur3 64-bit finalizer: a cheap, well-spread hash of a long. */
    static long mix(long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
