package dev.faro.join.sortmerge;

import dev.faro.join.JoinResult;
import dev.faro.join.Workers;
import dev.faro.join.workload.Tuples;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Phaser;

/**
 * The per-thread rates the sort-merge join's model needs (thesis §3.3.2, Table 4.2's SMJ parameters), measured on
 * one thread with the join's own kernels over the R and S it is given: P_scan (splitters and histogram), P_partition (the
 * range scatter), P_sort_run(l) ({@link RunSorter}), P_merge at the join's fan-in ({@link MultiWayMerge}) and P_scan
 * of the merge-join scan. The data is cut into {@code ranges} key ranges, partitioned and sorted in runs of l per range
 * as the join does, and merged and matched in groups of {@code group} adjacent ranges: with one join thread's share
 * (one node's volume over T), the join's {@code N x T} ranges and one group of them all, a thread merges and matches
 * as many tuples as one core of the distributed join does, from about as many runs (the join cuts a range's runs from
 * a node's share, T times a thread's, so it has fewer short tail runs; the counts are equal when a thread's share holds
 * many runs per range), and so for about as long. The result is the join of {@code inner} and {@code outer}.
 *
 * <p>The copies live in a shared arena, as the join's buffers do. The JIT's profile of the JDK's segment access path
 * (its session check: a confined session has an owner thread to compare, a shared one none) is one per process, so a
 * confined arena here made every segment access of the process compile to the slower code taking both kinds: in a
 * worker that ran the micro-benchmarks, the merge-join scan cost 5-7 ns per tuple, the micro-benchmark's and the
 * join's alike, against 2.2 ns in a process that only saw shared sessions.
 *
 * <p>Coordination code around the kernels.
 */
public final class SortMergeMicroBenchmarks {

    /**
     * One measurement, in nanoseconds per component over {@code tuples} (|R| + |S|) tuples.
     *
     * @param tuples |R| + |S| measured
     * @param histogramNanos splitters and the range histogram (P_scan)
     * @param partitionNanos the range scatter (P_partition)
     * @param sortNanos every run sorted (P_sort_run(l))
     * @param mergeNanos every range's runs merged (P_merge at {@code fanIn})
     * @param matchNanos the merge-join scan of every range (P_scan of Eq. 3.19)
     * @param fanIn the largest number of runs merged in one range
     * @param result the join of the R and S measured
     * @param cpuNanos the measuring thread's CPU time of each component, in the order above (histogram, partition,
     *     sort, merge, match)
     * @param startNanos when the thread started each component, {@link System#nanoTime}, in the same order
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
            long[] cpuNanos,
            long[] startNanos) {

        /** The wall time of each component, in the order of {@link #cpuNanos}. */
        public long[] wallNanos() {
            return new long[] {histogramNanos, partitionNanos, sortNanos, mergeNanos, matchNanos};
        }

        /**
         * The times of one concurrent measurement ({@code times}, one per thread) as the join's phases have them:
         * each component's wall time from the first thread's start to the last thread's end (a phase of the join
         * ends when its last thread does; the radix join's reference is timed so too), its CPU time the mean over
         * the threads; the first's result.
         */
        public static Times phase(List<Times> times) {
            int n = times.size();
            long[] cpu = new long[COMPONENTS];
            long[] first = new long[COMPONENTS];
            long[] last = new long[COMPONENTS];
            Arrays.fill(first, Long.MAX_VALUE);
            Arrays.fill(last, Long.MIN_VALUE);
            for (Times t : times) {
                long[] wall = t.wallNanos();
                for (int c = 0; c < COMPONENTS; c++) {
                    cpu[c] += t.cpuNanos()[c] / n;
                    first[c] = Math.min(first[c], t.startNanos()[c]);
                    last[c] = Math.max(last[c], t.startNanos()[c] + wall[c]);
                }
            }
            long[] span = new long[COMPONENTS];
            for (int c = 0; c < COMPONENTS; c++) {
                span[c] = last[c] - first[c];
            }
            return new Times(
                    times.getFirst().tuples(),
                    span[0],
                    span[1],
                    span[2],
                    span[3],
                    span[4],
                    times.stream().mapToLong(Times::fanIn).max().orElse(0),
                    times.getFirst().result(),
                    cpu,
                    first);
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
        try (Arena arena = Arena.ofShared()) { // shared, as the join's: see the class comment
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
            sync.run(); // closing a shared arena stops every thread briefly: not while another is still timed
            return new Times(
                    innerTuples + outerTuples,
                    afterHistogram - start,
                    afterPartition - partitionStart,
                    afterSort - sortStart,
                    afterMerge - mergeStart,
                    end - matchStart,
                    fanIn,
                    result,
                    cpu,
                    new long[] {start, partitionStart, sortStart, mergeStart, matchStart});
        }
    }
}
