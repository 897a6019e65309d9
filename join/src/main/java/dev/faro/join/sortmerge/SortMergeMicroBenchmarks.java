package dev.faro.join.sortmerge;

import dev.faro.join.JoinResult;
import dev.faro.join.Workers;
import dev.faro.join.workload.Tuples;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.Phaser;

/**
 * The per-thread rates the sort-merge join's model needs (thesis §3.3.2, Table 4.2's SMJ parameters), measured on
 * one thread with the join's own kernels over one node's R and S: P_scan (splitters and histogram), P_partition (the
 * range scatter), P_sort_run(l) ({@link RunSorter}), P_merge at the join's fan-in ({@link MultiWayMerge}) and P_scan
 * of the merge-join scan. The data is cut into {@code ranges} key ranges, partitioned and sorted in runs of l per range
 * as the join does, and merged and matched in groups of {@code group} adjacent ranges: with one node's volume, the
 * join's {@code N x T} ranges and groups of N, a group holds what one core of the distributed join merges and matches
 * (under weak scaling, each of the N senders' runs of its range), at that core's fan-in. The result is the join of
 * {@code inner} and {@code outer}.
 *
 * <p>Coordination code around the kernels.
 */
public final class SortMergeMicroBenchmarks {

    /**
     * One measurement, in nanoseconds per component over {@code tuples} (|R| + |S|) tuples.
     *
     * @param tuples |R| + |S| of the node
     * @param histogramNanos splitters and the range histogram (P_scan)
     * @param partitionNanos the range scatter (P_partition)
     * @param sortNanos every run sorted (P_sort_run(l))
     * @param mergeNanos every range's runs merged (P_merge at {@code fanIn})
     * @param matchNanos the merge-join scan of every range (P_scan of Eq. 3.19)
     * @param fanIn the largest number of runs merged in one range
     * @param result the join of this node's R and S
     * @param cpuNanos the measuring thread's CPU time of each component, in the order above (histogram, partition,
     *     sort, merge, match)
     */
    public record Times(
            long tuples,
            long histogramNanos,
            long partitionNanos,
            long sortNanos,
            long mergeNanos,
            long matchNanos,
            long fanIn,
            JoinResult result,
            long[] cpuNanos) {

        /** The component times averaged over {@code times} (one measurement per thread); the first's result. */
        public static Times mean(List<Times> times) {
            int n = times.size();
            long[] cpu = new long[COMPONENTS];
            for (Times t : times) {
                for (int c = 0; c < COMPONENTS; c++) {
                    cpu[c] += t.cpuNanos()[c] / n;
                }
            }
            return new Times(
                    times.getFirst().tuples(),
                    times.stream().mapToLong(Times::histogramNanos).sum() / n,
                    times.stream().mapToLong(Times::partitionNanos).sum() / n,
                    times.stream().mapToLong(Times::sortNanos).sum() / n,
                    times.stream().mapToLong(Times::mergeNanos).sum() / n,
                    times.stream().mapToLong(Times::matchNanos).sum() / n,
                    times.stream().mapToLong(Times::fanIn).max().orElse(0),
                    times.getFirst().result(),
                    cpu);
        }
    }

    /** The components measured: histogram, partition, sort, merge, match. */
    public static final int COMPONENTS = 5;

    private static final int SAMPLE = 1024;

    private SortMergeMicroBenchmarks() {}

    /** Measures once over {@code inner} and {@code outer} on the calling thread. */
    public static Times measure(
            SortMergeJoinConfig config,
            int ranges,
            MemorySegment inner,
            long innerTuples,
            MemorySegment outer,
            long outerTuples) {
        return measure(config, ranges, 1, inner, innerTuples, outer, outerTuples, () -> {});
    }

    /**
     * Measures once on each of {@code threads} threads at the same time, every thread over all of {@code inner} and
     * {@code outer} (read only) with copies of its own, the threads meeting at a barrier before each component;
     * returns each thread's times. {@code ranges} key ranges are merged and matched in groups of {@code group}.
     */
    public static List<Times> measureConcurrently(
            SortMergeJoinConfig config,
            int ranges,
            int group,
            int threads,
            MemorySegment inner,
            long innerTuples,
            MemorySegment outer,
            long outerTuples) {
        // a Phaser, not a barrier: a failing thread deregisters, so the others neither wait for it nor find a reset
        // barrier they would wait on for ever
        Phaser phaser = new Phaser(threads);
        Runnable sync = phaser::arriveAndAwaitAdvance;
        Times[] times = new Times[threads];
        Workers.run("smj-micro", threads, t -> {
            try {
                times[t] = measure(config, ranges, group, inner, innerTuples, outer, outerTuples, sync);
            } catch (RuntimeException | Error e) {
                phaser.arriveAndDeregister();
                throw e;
            }
        });
        return List.of(times);
    }

    private static Times measure(
            SortMergeJoinConfig config,
            int ranges,
            int group,
            MemorySegment inner,
            long innerTuples,
            MemorySegment outer,
            long outerTuples,
            Runnable sync) {
        MemorySegment[] input = {inner, outer};
        long[] tuples = {innerTuples, outerTuples};
        int l = config.runTuples();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[][] copies = new MemorySegment[3][2];
            for (MemorySegment[] copy : copies) {
                for (int rel = 0; rel < 2; rel++) {
                    copy[rel] = arena.allocate(Math.max(16, tuples[rel] * Tuples.TUPLE_LENGTH), 64);
                }
            }
            MemorySegment[] partitioned = copies[0];
            MemorySegment[] sorted = copies[1];
            MemorySegment[] merged = copies[2];
            long[] cpu = new long[COMPONENTS];
            sync.run();
            long cpuStart = Workers.cpuNanos();
            long start = System.nanoTime();
            KeyRanges keyRanges = config.sampledSplitters()
                    ? KeyRanges.fromSample(KeyRanges.sample(input, tuples, SAMPLE), ranges)
                    : KeyRanges.equalWidthLocal(input, tuples, ranges);
            long[][] starts = new long[2][ranges + 1];
            for (int rel = 0; rel < 2; rel++) {
                long[] counts = new long[ranges];
                RangeKernels.histogram(input[rel], 0, tuples[rel], keyRanges, counts);
                for (int d = 0; d < ranges; d++) {
                    starts[rel][d + 1] = starts[rel][d] + counts[d];
                }
            }
            long afterHistogram = System.nanoTime();
            cpu[0] = Workers.cpuNanos() - cpuStart;
            sync.run();
            cpuStart = Workers.cpuNanos();
            long partitionStart = System.nanoTime();
            for (int rel = 0; rel < 2; rel++) {
                RangeKernels.scatter(input[rel], 0, tuples[rel], keyRanges, partitioned[rel], starts[rel].clone());
            }
            long afterPartition = System.nanoTime();
            cpu[1] = Workers.cpuNanos() - cpuStart;
            sync.run();
            cpuStart = Workers.cpuNanos();
            long sortStart = System.nanoTime();
            RunSorter sorter = new RunSorter(l);
            for (int rel = 0; rel < 2; rel++) {
                for (int d = 0; d < ranges; d++) {
                    for (long at = starts[rel][d]; at < starts[rel][d + 1]; at += l) {
                        int count = (int) Math.min(l, starts[rel][d + 1] - at);
                        sorter.sort(partitioned[rel], at, count, sorted[rel], at * Tuples.TUPLE_LENGTH);
                    }
                }
            }
            long afterSort = System.nanoTime();
            cpu[2] = Workers.cpuNanos() - cpuStart;
            sync.run();
            cpuStart = Workers.cpuNanos();
            long mergeStart = System.nanoTime();
            MultiWayMerge merge = new MultiWayMerge();
            long fanIn = 0;
            for (int rel = 0; rel < 2; rel++) {
                for (int g = 0; g < ranges; g += group) {
                    int last = Math.min(ranges, g + group);
                    int runs = 0;
                    for (int d = g; d < last; d++) {
                        runs += (int) ((starts[rel][d + 1] - starts[rel][d] + l - 1) / l);
                    }
                    fanIn = Math.max(fanIn, runs);
                    long[] runStarts = new long[runs];
                    long[] runEnds = new long[runs];
                    int at = 0;
                    for (int d = g; d < last; d++) {
                        for (long from = starts[rel][d]; from < starts[rel][d + 1]; from += l) {
                            runStarts[at] = from;
                            runEnds[at++] = Math.min(starts[rel][d + 1], from + l);
                        }
                    }
                    merge.merge(sorted[rel], runStarts, runEnds, runs, merged[rel], starts[rel][g]);
                }
            }
            long afterMerge = System.nanoTime();
            cpu[3] = Workers.cpuNanos() - cpuStart;
            sync.run();
            cpuStart = Workers.cpuNanos();
            long matchStart = System.nanoTime();
            JoinResult result = new JoinResult(0, 0);
            for (int g = 0; g < ranges; g += group) {
                int last = Math.min(ranges, g + group);
                result = result.plus(SortMergeJoin.match(
                        merged[0], starts[0][g], starts[0][last], merged[1], starts[1][g], starts[1][last]));
            }
            long end = System.nanoTime();
            cpu[4] = Workers.cpuNanos() - cpuStart;
            return new Times(
                    innerTuples + outerTuples,
                    afterHistogram - start,
                    afterPartition - partitionStart,
                    afterSort - sortStart,
                    afterMerge - mergeStart,
                    end - matchStart,
                    fanIn,
                    result,
                    cpu);
        }
    }
}
