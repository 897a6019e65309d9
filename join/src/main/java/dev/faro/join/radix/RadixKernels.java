package dev.faro.join.radix;

import dev.faro.join.workload.Tuples;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The radix join's per-tuple loops over 16-byte tuples ({@link Tuples}): histogram and scatter on the radix bits
 * {@code (key >>> shift) & mask}. Data path: allocation-free; ranges are in tuples.
 */
final class RadixKernels {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private RadixKernels() {}

    /** Adds the partition counts of tuples {@code [from, to)} of {@code tuples} to {@code counts}. */
    static void histogram(MemorySegment tuples, long from, long to, int shift, int mask, long[] counts) {
        long end = to * Tuples.TUPLE_LENGTH;
        for (long at = from * Tuples.TUPLE_LENGTH; at < end; at += Tuples.TUPLE_LENGTH) {
            counts[(int) (tuples.get(LONG, at) >>> shift) & mask]++;
        }
    }

    /**
     * Copies tuples {@code [from, to)} of {@code source} to {@code target}, each at the tuple index
     * {@code cursors[partition]}, which it then advances.
     */
    static void scatter(
            MemorySegment source, long from, long to, int shift, int mask, MemorySegment target, long[] cursors) {
        long end = to * Tuples.TUPLE_LENGTH;
        for (long at = from * Tuples.TUPLE_LENGTH; at < end; at += Tuples.TUPLE_LENGTH) {
            long key = source.get(LONG, at);
            long rid = source.get(LONG, at + Tuples.RID_OFFSET);
            int partition = (int) (key >>> shift) & mask;
            long to16 = cursors[partition]++ * Tuples.TUPLE_LENGTH;
            target.set(LONG, to16, key);
            target.set(LONG, to16 + Tuples.RID_OFFSET, rid);
        }
    }
}
