package dev.faro.join.sortmerge;

import dev.faro.join.workload.Tuples;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Sorts one run of 16-byte tuples by key, in cache (thesis §3.2.2 step 2; the thesis uses SIMD sorting networks, we
 * use the JDK's primitive sort): the keys are packed with their index within the run as
 * {@code key << 16 | index}, sorted as longs, and the tuples are written back in that order to the target. Keys must
 * be below {@code 2^47}. Data path: allocation-free after construction; thread-confined.
 */
final class RunSorter {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final long MAX_KEY = 1L << (63 - SortMergeJoinConfig.RUN_INDEX_BITS);

    private final long[] packed;
    private final long[] rids;

    RunSorter(int runTuples) {
        this.packed = new long[runTuples];
        this.rids = new long[runTuples];
    }

    /** Sorts tuples {@code [from, from + count)} of {@code source} into {@code target} at byte {@code targetOffset}. */
    void sort(MemorySegment source, long from, int count, MemorySegment target, long targetOffset) {
        long at = from * Tuples.TUPLE_LENGTH;
        for (int i = 0; i < count; i++, at += Tuples.TUPLE_LENGTH) {
            long key = source.get(LONG, at);
            if (key < 0 || key >= MAX_KEY) {
                throw new IllegalArgumentException("key out of the sortable range [0, 2^47): " + key);
            }
            packed[i] = key << SortMergeJoinConfig.RUN_INDEX_BITS | i;
            rids[i] = source.get(LONG, at + Tuples.RID_OFFSET);
        }
        Arrays.sort(packed, 0, count);
        long to = targetOffset;
        int mask = (1 << SortMergeJoinConfig.RUN_INDEX_BITS) - 1;
        for (int i = 0; i < count; i++, to += Tuples.TUPLE_LENGTH) {
            long p = packed[i];
            target.set(LONG, to, p >>> SortMergeJoinConfig.RUN_INDEX_BITS);
            target.set(LONG, to + Tuples.RID_OFFSET, rids[(int) (p & mask)]);
        }
    }
}
