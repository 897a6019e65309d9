package dev.faro.join.radix;

import dev.faro.join.JoinResult;
import dev.faro.join.Workers;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The radix join's phases after the network pass, on one node (thesis §3.2.1 phases 3 and 4): the network
 * partitions this node owns lie contiguously in {@code inner} and {@code outer}; the local pass radix-partitions each
 * of them on the next {@code localBits} key bits into {@code innerScratch} / {@code outerScratch} (same offsets), and
 * build-probe then joins every cache-sized sub-partition pair. With {@code localBits == 0} there is no local pass
 * (d = 1) and build-probe reads the partitions in place. The local pass's threads take whole partitions from a shared
 * counter; build-probe's take tasks planned by {@link BuildProbeTasks}, which splits skewed partitions.
 *
 * <p>Shared by the distributed join ({@link RadixHashJoin}) and the single-process reference
 * ({@link LocalRadixJoin}). Coordination code around the allocation-free {@link RadixKernels} and
 * {@link BuildProbe}.
 */
final class LocalPhases {

    private final MemorySegment inner;
    private final MemorySegment outer;
    private final MemorySegment innerScratch;
    private final MemorySegment outerScratch;
    /** By position: where each owned partition starts and how many tuples it holds. */
    private final long[] innerStart;

    private final long[] innerCount;
    private final long[] outerStart;
    private final long[] outerCount;
    private final int networkBits;
    private final int localBits;
    /** By position, the local pass's sub-partition bounds ({@code 2^localBits + 1} tuple indexes). */
    private final long[][] innerBounds;

    private final long[][] outerBounds;

    private long[] probedByThread = new long[0];
    private int splitPartitions;
    private long buildProbeCpuNanos;

    LocalPhases(
            MemorySegment inner,
            MemorySegment outer,
            MemorySegment innerScratch,
            MemorySegment outerScratch,
            long[] innerStart,
            long[] innerCount,
            long[] outerStart,
            long[] outerCount,
            int networkBits,
            int localBits) {
        this.inner = inner;
        this.outer = outer;
        this.innerScratch = innerScratch;
        this.outerScratch = outerScratch;
        this.innerStart = innerStart;
        this.innerCount = innerCount;
        this.outerStart = outerStart;
        this.outerCount = outerCount;
        this.networkBits = networkBits;
        this.localBits = localBits;
        this.innerBounds = new long[innerStart.length][];
        this.outerBounds = new long[innerStart.length][];
    }

    /** Bytes of scratch the local pass needs for a relation of {@code tuples} (none without a local pass). */
    static long scratchTuples(long tuples, int localBits) {
        return localBits == 0 ? 0 : tuples;
    }

    /**
     * Phase 3: the local radix pass over every owned partition, on {@code threads} threads; returns the threads' CPU
     * nanoseconds, summed.
     */
    long localPartition(int threads) {
        if (localBits == 0) {
            return 0;
        }
        AtomicInteger nextPartition = new AtomicInteger();
        return Workers.run("local-partition", threads, thread -> {
            int fanOut = 1 << localBits;
            long[] counts = new long[fanOut];
            long[] cursors = new long[fanOut];
            for (int at = nextPartition.getAndIncrement();
                    at < innerStart.length;
                    at = nextPartition.getAndIncrement()) {
                innerBounds[at] = pass(inner, innerScratch, innerStart[at], innerCount[at], counts, cursors);
                outerBounds[at] = pass(outer, outerScratch, outerStart[at], outerCount[at], counts, cursors);
            }
        });
    }

    private long[] pass(MemorySegment from, MemorySegment to, long start, long count, long[] counts, long[] cursors) {
        int mask = (1 << localBits) - 1;
        java.util.Arrays.fill(counts, 0);
        RadixKernels.histogram(from, start, start + count, networkBits, mask, counts);
        long[] bounds = new long[counts.length + 1];
        long position = start;
        for (int q = 0; q < counts.length; q++) {
            bounds[q] = position;
            cursors[q] = position;
            position += counts[q];
        }
        bounds[counts.length] = position;
        RadixKernels.scatter(from, start, start + count, networkBits, mask, to, cursors);
        return bounds;
    }

    /**
     * Phase 4: build and probe every (sub-)partition on {@code threads} threads; returns this node's result. Threads
     * take work from a shared counter; with more than one thread, skewed partitions are split as the thesis does
     * (§3.2.1): an outer (sub-)partition above {@link #splitOuterTuples} is cut into ranges that several threads probe
     * against one read-only table (built in a first round, probed in a second), and an inner one too large for the
     * cache ({@link #splitInnerTuples}) is cut into several tables, each probed by the whole outer partition.
     */
    JoinResult buildProbe(int threads) {
        BuildProbeTasks tasks = BuildProbeTasks.plan(this, threads);
        splitPartitions = tasks.splitPartitions();
        BuildProbe[] kernels = new BuildProbe[threads];
        BuildProbe[] shared = new BuildProbe[tasks.sharedTables()];
        AtomicInteger next = new AtomicInteger();
        buildProbeCpuNanos = Workers.run("build-probe", threads, thread -> {
            kernels[thread] = new BuildProbe();
            for (int task = next.getAndIncrement(); task < tasks.firstRound(); task = next.getAndIncrement()) {
                tasks.runFirstRound(task, kernels[thread], shared);
            }
        });
        if (tasks.secondRound() > 0) {
            AtomicInteger probe = new AtomicInteger();
            buildProbeCpuNanos += Workers.run("probe-split", threads, thread -> {
                for (int task = probe.getAndIncrement(); task < tasks.secondRound(); task = probe.getAndIncrement()) {
                    tasks.runSecondRound(task, kernels[thread], shared);
                }
            });
        }
        probedByThread = new long[threads];
        JoinResult sum = new JoinResult(0, 0);
        for (int t = 0; t < threads; t++) {
            sum = sum.plus(kernels[t].result());
            probedByThread[t] = kernels[t].probed();
        }
        return sum;
    }

    /** The CPU nanoseconds of the last {@link #buildProbe}'s threads, summed. */
    long buildProbeCpuNanos() {
        return buildProbeCpuNanos;
    }

    /** Outer tuples probed by each thread in the last {@link #buildProbe} (including an inner split's repeats). */
    long[] probedByThread() {
        return probedByThread.clone();
    }

    /** The (sub-)partitions the last {@link #buildProbe} split across threads. */
    int splitPartitions() {
        return splitPartitions;
    }

    /** Calls {@code pair} for every (sub-)partition pair: segments, inner and outer ranges, the bits already used. */
    void forEachPair(PairConsumer pair) {
        for (int at = 0; at < innerStart.length; at++) {
            if (localBits == 0) {
                pair.accept(
                        inner,
                        innerStart[at],
                        innerStart[at] + innerCount[at],
                        outer,
                        outerStart[at],
                        outerStart[at] + outerCount[at],
                        networkBits);
                continue;
            }
            long[] innerSub = innerBounds[at];
            long[] outerSub = outerBounds[at];
            for (int q = 0; q + 1 < innerSub.length; q++) {
                pair.accept(
                        innerScratch,
                        innerSub[q],
                        innerSub[q + 1],
                        outerScratch,
                        outerSub[q],
                        outerSub[q + 1],
                        networkBits + localBits);
            }
        }
    }

    /** Receives one (sub-)partition pair of {@link #forEachPair}. */
    @FunctionalInterface
    interface PairConsumer {
        void accept(
                MemorySegment inner,
                long innerFrom,
                long innerTo,
                MemorySegment outer,
                long outerFrom,
                long outerTo,
                int shift);
    }
}
