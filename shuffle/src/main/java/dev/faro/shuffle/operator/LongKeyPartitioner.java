package dev.faro.shuffle.operator;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link Partitioner#hashLongKey}: the tuple's first 8 bytes, {@link Partitioner#mix mixed}, modulo the group count.
 * A power-of-two count takes a mask instead of the division (the same result). The inherited vector method
 * ({@link #groups}) inlines {@link #group} into one loop; a copy of that loop here measured no faster. Data path:
 * allocation-free.
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
}
