package dev.faro.join.radix;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The work of one node's build-probe phase as tasks for threads that take them from a shared counter, with the
 * thesis's skew handling inside a machine (§3.2.1; digest §2.2):
 *
 * <ul>
 *   <li>an ordinary (sub-)partition pair is one task: build its inner table, probe it with its outer tuples;
 *   <li>an outer partition above {@link #splitOuterTuples} is cut into ranges: the first round builds its table once
 *       ({@code shared}), the second round's tasks probe that one read-only table with a range each, on any thread;
 *   <li>an inner partition above {@link #splitInnerTuples} (a table that would not fit in the cache) is cut into
 *       several tables, one task each, and every one of them is probed by the whole outer partition.
 * </ul>
 *
 * Only with more than one thread; work sharing stays inside the node, as in the thesis. Coordination code: the plan
 * is made once per join, the kernels are {@link BuildProbe}'s.
 */
final class BuildProbeTasks {

    private static final int JOIN = 0;
    private static final int BUILD = 1;

    /** By pair: segments, ranges and shift, as {@link LocalPhases#forEachPair} gives them. */
    private MemorySegment[] inners = new MemorySegment[16];

    private MemorySegment[] outers = new MemorySegment[16];
    private long[] pairs = new long[16 * 5]; // innerFrom, innerTo, outerFrom, outerTo, shift
    private int pairCount;

    /** First round: kind, pair, inner range (JOIN) or the shared table's index (BUILD). */
    private int[] kinds = new int[16];

    private int[] taskPairs = new int[16];
    private long[] taskRanges = new long[32];
    private int firstRound;

    /** Second round: the shared table, its pair, an outer range. */
    private int[] probeTables = new int[16];

    private int[] probePairs = new int[16];
    private long[] probeRanges = new long[32];
    private int secondRound;
    private int sharedTables;
    private int splitPartitions;

    private BuildProbeTasks() {}

    /** An outer partition above this many tuples is probed in ranges of this size by several threads. */
    static long splitOuterTuples(long outerTotal, int threads) {
        return Math.max(RadixJoinConfig.CACHE_TUPLES, outerTotal / (4L * threads));
    }

    /** An inner partition above this many tuples is cut into tables of at most this size. */
    static long splitInnerTuples(long innerTotal, int threads) {
        return Math.max(4L * RadixJoinConfig.CACHE_TUPLES, innerTotal / (4L * threads));
    }

    static BuildProbeTasks plan(LocalPhases phases, int threads) {
        BuildProbeTasks tasks = new BuildProbeTasks();
        phases.forEachPair(tasks::addPair);
        long innerTotal = 0;
        long outerTotal = 0;
        for (int p = 0; p < tasks.pairCount; p++) {
            innerTotal += tasks.pairs[5 * p + 1] - tasks.pairs[5 * p];
            outerTotal += tasks.pairs[5 * p + 3] - tasks.pairs[5 * p + 2];
        }
        long outerLimit = splitOuterTuples(outerTotal, threads);
        long innerLimit = splitInnerTuples(innerTotal, threads);
        for (int p = 0; p < tasks.pairCount; p++) {
            long innerFrom = tasks.pairs[5 * p];
            long innerTo = tasks.pairs[5 * p + 1];
            long outerFrom = tasks.pairs[5 * p + 2];
            long outerTo = tasks.pairs[5 * p + 3];
            if (innerTo == innerFrom || outerTo == outerFrom) {
                continue;
            }
            if (threads > 1 && innerTo - innerFrom > innerLimit) {
                tasks.splitPartitions++;
                for (long from = innerFrom; from < innerTo; from += innerLimit) {
                    tasks.addFirst(JOIN, p, from, Math.min(innerTo, from + innerLimit));
                }
            } else if (threads > 1 && outerTo - outerFrom > outerLimit) {
                tasks.splitPartitions++;
                int table = tasks.sharedTables++;
                tasks.addFirst(BUILD, p, table, 0);
                for (long from = outerFrom; from < outerTo; from += outerLimit) {
                    tasks.addSecond(table, p, from, Math.min(outerTo, from + outerLimit));
                }
            } else {
                tasks.addFirst(JOIN, p, innerFrom, innerTo);
            }
        }
        return tasks;
    }

    private void addPair(
            MemorySegment inner,
            long innerFrom,
            long innerTo,
            MemorySegment outer,
            long outerFrom,
            long outerTo,
            int shift) {
        if (pairCount == inners.length) {
            inners = Arrays.copyOf(inners, 2 * pairCount);
            outers = Arrays.copyOf(outers, 2 * pairCount);
            pairs = Arrays.copyOf(pairs, 2 * 5 * pairCount);
        }
        inners[pairCount] = inner;
        outers[pairCount] = outer;
        long[] values = {innerFrom, innerTo, outerFrom, outerTo, shift};
        System.arraycopy(values, 0, pairs, 5 * pairCount, 5);
        pairCount++;
    }

    private void addFirst(int kind, int pair, long a, long b) {
        if (firstRound == kinds.length) {
            kinds = Arrays.copyOf(kinds, 2 * firstRound);
            taskPairs = Arrays.copyOf(taskPairs, 2 * firstRound);
            taskRanges = Arrays.copyOf(taskRanges, 4 * firstRound);
        }
        kinds[firstRound] = kind;
        taskPairs[firstRound] = pair;
        taskRanges[2 * firstRound] = a;
        taskRanges[2 * firstRound + 1] = b;
        firstRound++;
    }

    private void addSecond(int table, int pair, long from, long to) {
        if (secondRound == probeTables.length) {
            probeTables = Arrays.copyOf(probeTables, 2 * secondRound);
            probePairs = Arrays.copyOf(probePairs, 2 * secondRound);
            probeRanges = Arrays.copyOf(probeRanges, 4 * secondRound);
        }
        probeTables[secondRound] = table;
        probePairs[secondRound] = pair;
        probeRanges[2 * secondRound] = from;
        probeRanges[2 * secondRound + 1] = to;
        secondRound++;
    }

    int firstRound() {
        return firstRound;
    }

    int secondRound() {
        return secondRound;
    }

    int sharedTables() {
        return sharedTables;
    }

    int splitPartitions() {
        return splitPartitions;
    }

    /** The most outer tuples one task probes (the longest task's probe work). */
    long largestProbe() {
        long largest = 0;
        for (int task = 0; task < firstRound; task++) {
            int p = taskPairs[task];
            largest = kinds[task] == JOIN ? Math.max(largest, pairs[5 * p + 3] - pairs[5 * p + 2]) : largest;
        }
        for (int task = 0; task < secondRound; task++) {
            largest = Math.max(largest, probeRanges[2 * task + 1] - probeRanges[2 * task]);
        }
        return largest;
    }

    /** The most outer tuples any one (sub-)partition holds. */
    long largestOuterPartition() {
        long largest = 0;
        for (int p = 0; p < pairCount; p++) {
            largest = Math.max(largest, pairs[5 * p + 3] - pairs[5 * p + 2]);
        }
        return largest;
    }

    /** Runs first-round task {@code task} with {@code kernel}; a BUILD task fills {@code shared}. */
    void runFirstRound(int task, BuildProbe kernel, BuildProbe[] shared) {
        int p = taskPairs[task];
        int shift = (int) pairs[5 * p + 4];
        if (kinds[task] == BUILD) {
            BuildProbe table = new BuildProbe();
            table.build(inners[p], pairs[5 * p], pairs[5 * p + 1], shift);
            shared[(int) taskRanges[2 * task]] = table;
            return;
        }
        kernel.join(
                inners[p],
                taskRanges[2 * task],
                taskRanges[2 * task + 1],
                outers[p],
                pairs[5 * p + 2],
                pairs[5 * p + 3],
                shift);
    }

    /** Runs second-round task {@code task}: probes a shared table with one outer range into {@code kernel}. */
    void runSecondRound(int task, BuildProbe kernel, BuildProbe[] shared) {
        kernel.probe(
                shared[probeTables[task]], outers[probePairs[task]], probeRanges[2 * task], probeRanges[2 * task + 1]);
    }
}
