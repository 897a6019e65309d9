package dev.faro.join.sortmerge;

import dev.faro.join.workload.Tuples;
import java.lang.foreign.MemorySegment;

/**
 * The sort-merge join's range-partitioning loops over 16-byte tuples ({@link Tuples}), shared by the join and its
 * micro-benchmarks ({@link SortMergeMicroBenchmarks}) so that both run (and the JIT compiles) the same code. Data
 * path: allocation-free; ranges are in tuples.
 */
final class RangeKernels {

    private RangeKernels() {}

    /** Adds the key-range counts of tuples {@code [from, to)} of {@code tuples} to {@code counts}. */
    static void histogram(MemorySegment tuples, long from, long to, KeyRanges ranges, long[] counts) {
        for (long i = from; i < to; i++) {
            counts[ranges.range(Tuples.key(tuples, i))]++;
        }
    }

    /**
     * Copies tuples {@code [from, to)} of {@code source} to {@code target}, each at the tuple index
     * {@code cursors[range]}, which it then advances.
     */
    static void scatter(
            MemorySegment source, long from, long to, KeyRanges ranges, MemorySegment target, long[] cursors) {
        for (long i = from; i < to; i++) {
            long key = Tuples.key(source, i);
            Tuples.set(target, cursors[ranges.range(key)]++, key, Tuples.rid(source, i));
        }
    }
}
