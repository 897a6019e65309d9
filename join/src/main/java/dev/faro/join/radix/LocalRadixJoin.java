package dev.faro.join.radix;

import dev.faro.join.JoinResult;
import dev.faro.join.Workers;
import dev.faro.join.workload.Tuples;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The single-process parallel radix hash join (Balkesen et al., the thesis's starting point): the reference
 * {@code faro bench join} compares the distributed join with on the same total cores. The same phases and kernels
 * as {@link RadixHashJoin} without the network: histogram, a first partitioning pass on {@code networkBits} into
 * one partition-contiguous copy, then the same local pass and build-probe ({@link LocalPhases}).
 *
 * <p>Coordination code around the allocation-free kernels.
 */
public final class LocalRadixJoin {

    /**
     * The outcome and phase times: the first pass in {@code networkNanos} (no put or wait), and in
     * {@code windowNanos} the allocation of what the distributed join allocates in its window phase (the first pass's
     * output, zeroed, so its pages are faulted in as a window's are at registration, and the local pass's scratch).
     *
     * @param result matches and checksum
     * @param times the phases
     */
    public record Outcome(JoinResult result, PhaseTimes times) {}

    private LocalRadixJoin() {}

    /** Joins {@code inner} and {@code outer} (all of both) on {@code config.threads()} threads. */
    public static Outcome run(
            RadixJoinConfig config, MemorySegment inner, long innerTuples, MemorySegment outer, long outerTuples) {
        int threads = config.threads();
        int fanOut = 1 << config.networkBits();
        int mask = fanOut - 1;
        int localBits = config.localBitsFor(innerTuples);
        long start = System.nanoTime();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment innerPartitioned = arena.allocate(Math.max(16, innerTuples * Tuples.TUPLE_LENGTH), 64);
            MemorySegment outerPartitioned = arena.allocate(Math.max(16, outerTuples * Tuples.TUPLE_LENGTH), 64);
            MemorySegment innerScratch = arena.allocate(
                    Math.max(16, LocalPhases.scratchTuples(innerTuples, localBits) * Tuples.TUPLE_LENGTH), 64);
            MemorySegment outerScratch = arena.allocate(
                    Math.max(16, LocalPhases.scratchTuples(outerTuples, localBits) * Tuples.TUPLE_LENGTH), 64);
            long afterAllocation = System.nanoTime();
            long[][] innerCounts = new long[threads][fanOut];
            long[][] outerCounts = new long[threads][fanOut];
            long histogramCpu = Workers.run("histogram", threads, t -> {
                RadixKernels.histogram(
                        inner,
                        RadixHashJoin.slice(innerTuples, t, threads),
                        RadixHashJoin.slice(innerTuples, t + 1, threads),
                        0,
                        mask,
                        innerCounts[t]);
                RadixKernels.histogram(
                        outer,
                        RadixHashJoin.slice(outerTuples, t, threads),
                        RadixHashJoin.slice(outerTuples, t + 1, threads),
                        0,
                        mask,
                        outerCounts[t]);
            });
            long afterScan = System.nanoTime();
            long[] innerStart = new long[fanOut];
            long[] innerCount = new long[fanOut];
            long[] outerStart = new long[fanOut];
            long[] outerCount = new long[fanOut];
            long[][] innerCursors = new long[threads][fanOut];
            long[][] outerCursors = new long[threads][fanOut];
            long innerAt = 0;
            long outerAt = 0;
            for (int p = 0; p < fanOut; p++) {
                innerStart[p] = innerAt;
                outerStart[p] = outerAt;
                for (int t = 0; t < threads; t++) {
                    innerCursors[t][p] = innerAt;
                    outerCursors[t][p] = outerAt;
                    innerAt += innerCounts[t][p];
                    outerAt += outerCounts[t][p];
                }
                innerCount[p] = innerAt - innerStart[p];
                outerCount[p] = outerAt - outerStart[p];
            }
            long afterHistogram = System.nanoTime();
            long partitionCpu = Workers.run("partition", threads, t -> {
                RadixKernels.scatter(
                        inner,
                        RadixHashJoin.slice(innerTuples, t, threads),
                        RadixHashJoin.slice(innerTuples, t + 1, threads),
                        0,
                        mask,
                        innerPartitioned,
                        innerCursors[t]);
                RadixKernels.scatter(
                        outer,
                        RadixHashJoin.slice(outerTuples, t, threads),
                        RadixHashJoin.slice(outerTuples, t + 1, threads),
                        0,
                        mask,
                        outerPartitioned,
                        outerCursors[t]);
            });
            long afterPartition = System.nanoTime();
            LocalPhases local = new LocalPhases(
                    innerPartitioned,
                    outerPartitioned,
                    innerScratch,
                    outerScratch,
                    innerStart,
                    innerCount,
                    outerStart,
                    outerCount,
                    config.networkBits(),
                    localBits);
            long localCpu = local.localPartition(threads);
            long afterLocal = System.nanoTime();
            JoinResult result = local.buildProbe(threads);
            long end = System.nanoTime();
            long pass = afterPartition - afterHistogram;
            PhaseTimes times = new PhaseTimes(
                    afterHistogram - afterAllocation,
                    afterAllocation - start,
                    pass,
                    pass,
                    0,
                    0,
                    afterLocal - afterPartition,
                    end - afterLocal,
                    end - start,
                    0,
                    afterScan - afterAllocation,
                    histogramCpu / threads,
                    partitionCpu / threads,
                    0,
                    localCpu / threads,
                    local.buildProbeCpuNanos() / threads);
            return new Outcome(result, times);
        }
    }
}
