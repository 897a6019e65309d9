package dev.faro.join.sortmerge;

import dev.faro.fabric.FaroException;

/**
 * The settings of a sort-merge join run (thesis §3.2.2, §4.2.2).
 *
 * @param threads worker threads per node; there are {@code nodes x threads} key ranges, one per core
 * @param runTuples l, the tuples of one sorted run (the unit that is sorted in cache and shipped)
 * @param sampledSplitters true: range splitters from a sample of every node's keys (for skew); false: equal-width
 *     ranges over the key domain (the thesis's choice for uniform keys)
 */
public record SortMergeJoinConfig(int threads, int runTuples, boolean sampledSplitters) {

    /** Keys must stay below this: a run is sorted as {@code key << RUN_INDEX_BITS | index} longs. */
    public static final int RUN_INDEX_BITS = 16;

    public SortMergeJoinConfig {
        FaroException.checkArgument(threads >= 1 && threads <= 256, "threads must be in [1, 256]: %d", threads);
        FaroException.checkArgument(
                runTuples >= 16 && runTuples <= 1 << RUN_INDEX_BITS, "runTuples must be in [16, 65536]: %d", runTuples);
    }

    /** Runs of 8 Ki tuples (128 KiB, in L2), equal-width ranges. */
    public static SortMergeJoinConfig defaults(int threads) {
        return new SortMergeJoinConfig(threads, 8 * 1024, false);
    }

    public SortMergeJoinConfig withRunTuples(int value) {
        return new SortMergeJoinConfig(threads, value, sampledSplitters);
    }

    public SortMergeJoinConfig withSampledSplitters(boolean value) {
        return new SortMergeJoinConfig(threads, runTuples, value);
    }
}
