package dev.faro.shuffle.operator;

import dev.faro.fabric.PlainSegments;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link Partitioner#hashLongKey}: the tuple's first 8 bytes, {@link Partitioner#mix mixed}, modulo the group count.
 * A power-of-two count takes a mask instead of the division (the same result). The vector method ({@link #groups})
 * is a loop of its own: through the inherited one, which calls {@link #group} per tuple, a worker JVM of {@code faro
 * bench shuffle} left the segment's bounds check out of line (JFR: {@code checkBounds} in 30% of a SHUFFLE thread's
 * samples), though a micro-benchmark inlined it. A native vector's keys load through {@link
 * PlainSegments#WHOLE_MEMORY} after one range check per vector: through the segment parameter, whose class a worker
 * JVM sees vary (mapped registered memory, native tables), the JDK's access checks still stayed calls (JFR: 16 % of a
 * SHUFFLE thread's samples). Data path: allocation-free.
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
        if (count > 0 && tuples.isNative()) {
            // the vector's range checked once; the keys then load through the whole-memory segment
            long first = PlainSegments.checkRange(tuples, offset, (long) (count - 1) * tupleBytes + Long.BYTES);
            groupsAt(first, tupleBytes, count, groupsOut);
            return;
        }
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

    /** {@link #groups} of a native vector whose first key is at absolute address {@code first}. */
    private void groupsAt(long first, int tupleBytes, int count, int[] groupsOut) {
        MemorySegment memory = PlainSegments.WHOLE_MEMORY;
        if (mask >= 0) {
            for (int i = 0; i < count; i++) {
                groupsOut[i] = (int) (Partitioner.mix(memory.get(KEY, first + (long) i * tupleBytes)) & mask);
            }
        } else {
            for (int i = 0; i < count; i++) {
                long hash = Partitioner.mix(memory.get(KEY, first + (long) i * tupleBytes));
                groupsOut[i] = (int) Long.remainderUnsigned(hash, groups);
            }
        }
    }
}
