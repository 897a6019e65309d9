package dev.faro.join.sortmerge;

import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.PlainSegments;
import dev.faro.join.JoinResult;
import dev.faro.join.Workers;
import dev.faro.join.rma.Collectives;
import dev.faro.join.rma.RmaConfig;
import dev.faro.join.rma.RmaGroup;
import dev.faro.join.rma.RmaLane;
import dev.faro.join.rma.RmaWindow;
import dev.faro.join.workload.Tuples;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The distributed sort-merge join of the thesis (§3.2.2, MPI variant §4.2.2), one rank's part; {@code N x T} key
 * ranges, one per core (rank {@code r}'s thread {@code t} owns range {@code r T + t}).
 *
 * <ol>
 *   <li>Range partitioning: splitters (equal-width over the global key domain, or from a sample of every rank's keys
 *       for skew), per-thread histograms, a node-local scatter so that each range's tuples are contiguous; window
 *       sizes by {@code reduceScatterBlock}, private offsets by {@code scanExclusive}, range bases by
 *       {@code allReduceSum}, and every sender's count per range by {@code allToAll} (the run boundaries).
 *   <li>Window allocation: a window per relation and each thread's two registered run buffers.
 *   <li>Sort and send: each thread cuts each range's data into runs of {@code l}, sorts one in cache into a run
 *       buffer and puts it at its place in the owner's window while it sorts the next (two buffers); its
 *       destinations start at its own range + 1 and wrap around (the thesis's staggered order). Flush, barrier.
 *   <li>Merge: each thread merges the runs of its range (every sender's, in one pass) ({@link MultiWayMerge}).
 *   <li>Match: a two-pointer merge-join scan of the range's sorted R and S.
 * </ol>
 *
 * <p>Coordination code around {@link RunSorter} and {@link MultiWayMerge}.
 */
public final class SortMergeJoin {

    /** One rank's outcome. */
    public record Outcome(JoinResult global, JoinResult local, SortMergePhaseTimes times) {}

    private static final int SAMPLE = 1024;
    private static final int BUFFERS = 2;

    private SortMergeJoin() {}

    /** The group configuration the join needs: a lane per thread, a slot per run buffer. */
    public static RmaConfig rmaConfig(SortMergeJoinConfig config) {
        return RmaConfig.of(config.threads(), BUFFERS);
    }

    public static Outcome run(
            RmaGroup group,
            SortMergeJoinConfig config,
            MemorySegment inner,
            long innerTuples,
            MemorySegment outer,
            long outerTuples) {
        int threads = config.threads();
        int ranks = group.size();
        int rank = group.rank();
        int ranges = ranks * threads;
        Collectives collectives = group.collectives();
        MemorySegment[] input = {inner, outer};
        long[] inputTuples = {innerTuples, outerTuples};
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] partitioned = {
                arena.allocate(Math.max(16, innerTuples * Tuples.TUPLE_LENGTH), 64),
                arena.allocate(Math.max(16, outerTuples * Tuples.TUPLE_LENGTH), 64)
            };
            collectives.barrier();
            long start = System.nanoTime();

            // 1. range partitioning
            // the splitters: each thread's min and max key (equal width) or a sample (skew), agreed by all ranks
            long[][] minMax = new long[threads][];
            long partitionCpu = config.sampledSplitters()
                    ? 0
                    : Workers.run(
                            "smj-min-max", threads, t -> minMax[t] = KeyRanges.minMax(input, inputTuples, t, threads));
            long splittersWall = System.nanoTime() - start;
            KeyRanges keyRanges = config.sampledSplitters()
                    ? KeyRanges.sampled(collectives, input, inputTuples, ranges, SAMPLE)
                    : KeyRanges.equalWidth(collectives, KeyRanges.combine(minMax), ranges);
            long kernelsStart = System.nanoTime();
            long[][][] counts = new long[2][threads][ranges];
            partitionCpu += Workers.run("smj-histogram", threads, t -> {
                for (int rel = 0; rel < 2; rel++) {
                    RangeKernels.histogram(
                            input[rel],
                            inputTuples[rel] * t / threads,
                            inputTuples[rel] * (t + 1) / threads,
                            keyRanges,
                            counts[rel][t]);
                }
            });
            long[][] nodeStart = new long[2][ranges];
            long[][] nodeCount = new long[2][ranges];
            long[][][] cursors = new long[2][threads][ranges];
            for (int rel = 0; rel < 2; rel++) {
                long at = 0;
                for (int d = 0; d < ranges; d++) {
                    nodeStart[rel][d] = at;
                    for (int t = 0; t < threads; t++) {
                        cursors[rel][t][d] = at;
                        at += counts[rel][t][d];
                    }
                    nodeCount[rel][d] = at - nodeStart[rel][d];
                }
            }
            partitionCpu += Workers.run("smj-scatter", threads, t -> {
                for (int rel = 0; rel < 2; rel++) {
                    RangeKernels.scatter(
                            input[rel],
                            inputTuples[rel] * t / threads,
                            inputTuples[rel] * (t + 1) / threads,
                            keyRanges,
                            partitioned[rel],
                            cursors[rel][t]);
                }
            });
            long partitionKernels = splittersWall + System.nanoTime() - kernelsStart;
            // by owner rank: [R counts of its T ranges | S counts of its T ranges]
            long[] byOwner = new long[ranks * 2 * threads];
            for (int d = 0; d < ranges; d++) {
                int owner = d / threads;
                byOwner[owner * 2 * threads + d % threads] = nodeCount[0][d];
                byOwner[owner * 2 * threads + threads + d % threads] = nodeCount[1][d];
            }
            long[] received = collectives.reduceScatterBlock(byOwner); // MPI_Reduce_scatter_block: window sizes
            long[] before = collectives.scanExclusive(byOwner); // private offsets inside each range
            long[] totals = collectives.allReduceSum(byOwner); // range sizes, for every range's base
            long[] fromSenders = collectives.allToAll(byOwner); // per sender, my ranges' counts: run boundaries
            long[][] rangeBase = new long[2][ranges];
            for (int owner = 0; owner < ranks; owner++) {
                for (int rel = 0; rel < 2; rel++) {
                    long at = 0;
                    for (int tt = 0; tt < threads; tt++) {
                        rangeBase[rel][owner * threads + tt] = at;
                        at += totals[owner * 2 * threads + rel * threads + tt];
                    }
                }
            }
            long afterPartition = System.nanoTime();

            // 2. windows and run buffers
            long[] windowTuples = new long[2];
            for (int tt = 0; tt < threads; tt++) {
                windowTuples[0] += received[tt];
                windowTuples[1] += received[threads + tt];
            }
            RmaWindow[] windows = {
                group.createWindow(windowTuples[0] * Tuples.TUPLE_LENGTH),
                group.createWindow(windowTuples[1] * Tuples.TUPLE_LENGTH)
            };
            int runBytes = config.runTuples() * Tuples.TUPLE_LENGTH;
            MemoryRegion[] runBuffers = new MemoryRegion[threads];
            for (int t = 0; t < threads; t++) {
                runBuffers[t] = group.registerLocal((long) BUFFERS * runBytes);
            }
            MemorySegment[] merged = {
                arena.allocate(Math.max(16, windowTuples[0] * Tuples.TUPLE_LENGTH), 64),
                arena.allocate(Math.max(16, windowTuples[1] * Tuples.TUPLE_LENGTH), 64)
            };
            long afterWindows = System.nanoTime();

            // 3. sort and send, staggered destinations, two run buffers per thread
            long[] sortNanos = new long[threads];
            long[] putNanos = new long[threads];
            long[] waitNanos = new long[threads];
            long[] bytes = new long[threads];
            long[] fabricCpu = new long[threads]; // the CPU time of the puts, waits and flush (see the phase times)
            int l = config.runTuples();
            long sortCpu = Workers.run("smj-sort", threads, t -> {
                RmaLane lane = group.lane(t);
                RunSorter sorter = new RunSorter(l);
                MemoryRegion buffer = runBuffers[t];
                MemorySegment runSegment = PlainSegments.of(buffer.segment());
                long bytesBefore = lane.bytesPut();
                int next = 0;
                int self = rank * threads + t;
                for (int rel = 0; rel < 2; rel++) {
                    for (int step = 1; step <= ranges; step++) {
                        int d = (self + step) % ranges;
                        long count = nodeCount[rel][d];
                        long runs = (count + l - 1) / l;
                        for (long j = t; j < runs; j += threads) {
                            int tuples = (int) Math.min(l, count - j * l);
                            long waitStart = System.nanoTime();
                            long cpuStart = Workers.cpuNanos();
                            lane.await(next);
                            fabricCpu[t] += Workers.cpuNanos() - cpuStart;
                            long sortStart = System.nanoTime();
                            waitNanos[t] += sortStart - waitStart;
                            sorter.sort(
                                    partitioned[rel],
                                    nodeStart[rel][d] + j * l,
                                    tuples,
                                    runSegment,
                                    (long) next * runBytes);
                            long putStart = System.nanoTime();
                            sortNanos[t] += putStart - sortStart;
                            cpuStart = Workers.cpuNanos();
                            long target = rangeBase[rel][d]
                                    + before[(d / threads) * 2 * threads + rel * threads + d % threads]
                                    + j * l;
                            lane.put(
                                    d / threads,
                                    windows[rel],
                                    target * Tuples.TUPLE_LENGTH,
                                    buffer,
                                    (long) next * runBytes,
                                    tuples * Tuples.TUPLE_LENGTH,
                                    next);
                            fabricCpu[t] += Workers.cpuNanos() - cpuStart;
                            putNanos[t] += System.nanoTime() - putStart;
                            next = (next + 1) % BUFFERS;
                        }
                    }
                }
                long flushStart = System.nanoTime();
                long cpuStart = Workers.cpuNanos();
                lane.flush();
                fabricCpu[t] += Workers.cpuNanos() - cpuStart;
                waitNanos[t] += System.nanoTime() - flushStart;
                bytes[t] = lane.bytesPut() - bytesBefore;
            });
            long afterSort = System.nanoTime();
            collectives.barrier();

            // 4. merge each of my ranges' runs (every sender's, cut at multiples of l)
            long afterBarrier = System.nanoTime();
            long mergeCpu = Workers.run("smj-merge", threads, tt -> {
                MultiWayMerge merge = new MultiWayMerge();
                for (int rel = 0; rel < 2; rel++) {
                    int d = rank * threads + tt;
                    long base = rangeBase[rel][d];
                    int runs = 0;
                    for (int s = 0; s < ranks; s++) {
                        long c = fromSenders[s * 2 * threads + rel * threads + tt];
                        runs += (int) ((c + l - 1) / l);
                    }
                    long[] starts = new long[runs];
                    long[] ends = new long[runs];
                    int at = 0;
                    long senderStart = base;
                    for (int s = 0; s < ranks; s++) {
                        long c = fromSenders[s * 2 * threads + rel * threads + tt];
                        for (long j = 0; j * l < c; j++) {
                            starts[at] = senderStart + j * l;
                            ends[at++] = senderStart + Math.min(c, (j + 1) * l);
                        }
                        senderStart += c;
                    }
                    // a plain view: the micro-benchmark merges plain native memory, and one segment class keeps its
                    // checks folded
                    merge.merge(PlainSegments.of(windows[rel].segment()), starts, ends, runs, merged[rel], base);
                }
            });
            long afterMerge = System.nanoTime();

            // 5. match
            JoinResult[] results = new JoinResult[threads];
            long matchCpu = Workers.run("smj-match", threads, tt -> {
                int d = rank * threads + tt;
                results[tt] = match(
                        merged[0],
                        rangeBase[0][d],
                        rangeBase[0][d] + received[tt],
                        merged[1],
                        rangeBase[1][d],
                        rangeBase[1][d] + received[threads + tt]);
            });
            long end = System.nanoTime();
            JoinResult mine = new JoinResult(0, 0);
            for (JoinResult result : results) {
                mine = mine.plus(result);
            }
            long[] sums = collectives.allReduceSum(new long[] {mine.matches(), mine.checksum()});
            for (RmaWindow window : windows) {
                window.close();
            }
            for (MemoryRegion buffer : runBuffers) {
                buffer.close();
            }
            SortMergePhaseTimes times = new SortMergePhaseTimes(
                    afterPartition - start,
                    afterWindows - afterPartition,
                    afterSort - afterWindows,
                    mean(sortNanos),
                    mean(putNanos),
                    mean(waitNanos),
                    afterMerge - afterBarrier,
                    end - afterMerge,
                    end - start,
                    Arrays.stream(bytes).sum(),
                    partitionKernels,
                    partitionCpu / threads,
                    sortCpu / threads,
                    mean(fabricCpu),
                    mergeCpu / threads,
                    matchCpu / threads);
            return new Outcome(new JoinResult(sums[0], sums[1]), mine, times);
        }
    }

    /** The two-pointer merge-join scan of sorted R {@code [innerFrom, innerTo)} and S; duplicates on both sides. */
    static JoinResult match(
            MemorySegment inner, long innerFrom, long innerTo, MemorySegment outer, long outerFrom, long outerTo) {
        long matches = 0;
        long checksum = 0;
        long i = innerFrom;
        long o = outerFrom;
        while (i < innerTo && o < outerTo) {
            long innerKey = Tuples.key(inner, i);
            long outerKey = Tuples.key(outer, o);
            if (innerKey < outerKey) {
                i++;
            } else if (outerKey < innerKey) {
                o++;
            } else {
                long innerEnd = i;
                while (innerEnd < innerTo && Tuples.key(inner, innerEnd) == innerKey) {
                    innerEnd++;
                }
                for (; o < outerTo && Tuples.key(outer, o) == innerKey; o++) {
                    long outerRid = Tuples.rid(outer, o);
                    for (long k = i; k < innerEnd; k++) {
                        matches++;
                        checksum += Tuples.pairHash(Tuples.rid(inner, k), outerRid);
                    }
                }
                i = innerEnd;
            }
        }
        return new JoinResult(matches, checksum);
    }

    private static long mean(long[] values) {
        return Arrays.stream(values).sum() / values.length;
    }
}
