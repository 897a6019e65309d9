package dev.faro.shuffle.operator;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Maps a fixed-width tuple to a transmission group. Data path: must not allocate. */
@FunctionalInterface
public interface Partitioner {

    /** The group of the tuple at {@code offset} in {@code tuples}, in [0, groups). */
    int group(MemorySegment tuples, long offset);

    /** Hashes the tuple's first 8 bytes (a long key) into {@code groups} groups (a murmur3 finalizer, then modulo). */
    static Partitioner hashLongKey(int groups) {
        if (groups < 1) {
            throw new IllegalArgumentException("groups must be positive: groups=" + groups);
        }
        if (groups == 1) {
            return (tuples, offset) -> 0;
        }
        return (tuples, offset) -> {
            long key = tuples.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
            return (int) Long.remainderUnsigned(mix(key), groups);
        };
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
