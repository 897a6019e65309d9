package dev.faro.join.radix;

import dev.faro.fabric.MemoryRegion;
import dev.faro.join.JoinResult;
import dev.faro.join.Workers;
import dev.faro.join.rma.Collectives;
import dev.faro.join.rma.RmaConfig;
import dev.faro.join.rma.RmaGroup;
import dev.faro.join.rma.RmaWindow;
import dev.faro.join.workload.Tuples;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The distributed radix hash join of the thesis (§3.2.1, MPI variant §4.2.1), one rank's part: every rank calls
 * {@link #run} with its share of R and S.
 *
 * <ol>
 *   <li>Histogram: each thread counts its slice of R and S by network partition (low {@code networkBits} key bits);
 *       the node histograms are summed to the global histogram ({@code allReduceSum}) and prefix-summed over ranks
 *       ({@code scanExclusive}); partitions are assigned to ranks ({@link PartitionAssignment}); the receive layout
 *       puts each rank's partitions one after another, and inside each partition every source rank, and inside it
 *       every thread, gets an exclusive sub-range (Fig. 3.3), so no two writers ever overlap.
 *   <li>Window allocation: one window per relation sized to the tuples this rank receives, and each thread's
 *       pre-registered buffers ({@code k} per remote partition).
 *   <li>Network partitioning ({@link NetworkPartitioner}), then a flush per thread and a barrier: afterwards every
 *       partition lies contiguously in its owner's windows.
 *   <li>Local partitioning and build-probe ({@link LocalPhases}).
 * </ol>
 *
 * <p>Coordination code; the per-tuple loops are in {@link RadixKernels}, {@link NetworkPartitioner} and
 * {@link BuildProbe}. Failures of peers surface as {@link dev.faro.fabric.FaroException} from the rank's waits.
 */
public final class RadixHashJoin {

    /** One rank's outcome: the global result (summed over ranks), this rank's share, and its phase times. */
    public record Outcome(JoinResult global, JoinResult local, PhaseTimes times) {}

    private RadixHashJoin() {}

    /** The group configuration the join needs: a lane per thread and a request slot per private buffer. */
    public static RmaConfig rmaConfig(RadixJoinConfig config) {
        return RmaConfig.of(config.threads(), (1 << config.networkBits()) * config.buffersPerPartition());
    }

    /**
     * Joins this rank's {@code inner} ({@code innerTuples} tuples) and {@code outer} with every other rank's.
     * {@code group} must have been opened with {@link #rmaConfig} (or more lanes and slots).
     */
    public static Outcome run(
            RmaGroup group,
            RadixJoinConfig config,
            MemorySegment inner,
            long innerTuples,
            MemorySegment outer,
            long outerTuples) {
        int threads = config.threads();
        int ranks = group.size();
        int rank = group.rank();
        int fanOut = 1 << config.networkBits();
        int mask = fanOut - 1;
        Collectives collectives = group.collectives();
        collectives.barrier();
        long start = System.nanoTime();

        // 1. histogram, assignment, receive layout and private offsets
        long[][] innerCounts = new long[threads][fanOut];
        long[][] outerCounts = new long[threads][fanOut];
        long histogramCpu = Workers.run("histogram", threads, t -> {
            RadixKernels.histogram(
                    inner, slice(innerTuples, t, threads), slice(innerTuples, t + 1, threads), 0, mask, innerCounts[t]);
            RadixKernels.histogram(
                    outer, slice(outerTuples, t, threads), slice(outerTuples, t + 1, threads), 0, mask, outerCounts[t]);
        });
        long afterScan = System.nanoTime();
        long[] nodeCounts = new long[2 * fanOut];
        for (int t = 0; t < threads; t++) {
            for (int p = 0; p < fanOut; p++) {
                nodeCounts[p] += innerCounts[t][p];
                nodeCounts[fanOut + p] += outerCounts[t][p];
            }
        }
        long[] global = collectives.allReduceSum(nodeCounts);
        long[] before = collectives.scanExclusive(nodeCounts);
        long[] globalInner = java.util.Arrays.copyOfRange(global, 0, fanOut);
        long[] globalOuter = java.util.Arrays.copyOfRange(global, fanOut, 2 * fanOut);
        int[] owners = config.assignment().owners(globalInner, globalOuter, ranks);
        long[] innerBase = new long[fanOut];
        long[] outerBase = new long[fanOut];
        long[] innerReceived = new long[ranks];
        long[] outerReceived = new long[ranks];
        int owned = 0;
        for (int p = 0; p < fanOut; p++) {
            innerBase[p] = innerReceived[owners[p]];
            outerBase[p] = outerReceived[owners[p]];
            innerReceived[owners[p]] += globalInner[p];
            outerReceived[owners[p]] += globalOuter[p];
            owned += owners[p] == rank ? 1 : 0;
        }
        long[][] innerCursors = new long[threads][fanOut];
        long[][] outerCursors = new long[threads][fanOut];
        for (int p = 0; p < fanOut; p++) {
            long innerAt = innerBase[p] + before[p];
            long outerAt = outerBase[p] + before[fanOut + p];
            for (int t = 0; t < threads; t++) {
                innerCursors[t][p] = innerAt;
                outerCursors[t][p] = outerAt;
                innerAt += innerCounts[t][p];
                outerAt += outerCounts[t][p];
            }
        }
        int[] remoteIndex = new int[fanOut];
        int remoteCount = 0;
        for (int p = 0; p < fanOut; p++) {
            remoteIndex[p] = owners[p] == rank ? -1 : remoteCount++;
        }
        long afterHistogram = System.nanoTime();

        // 2. windows and pre-registered buffers
        int localBits = config.localBitsFor(innerTuples * ranks);
        RmaWindow innerWindow = group.createWindow(innerReceived[rank] * Tuples.TUPLE_LENGTH);
        RmaWindow outerWindow = group.createWindow(outerReceived[rank] * Tuples.TUPLE_LENGTH);
        MemoryRegion[] buffers = new MemoryRegion[threads];
        for (int t = 0; t < threads; t++) {
            buffers[t] = group.registerLocal(NetworkPartitioner.bufferRegionBytes(
                    remoteCount, config.buffersPerPartition(), config.bufferBytes()));
        }
        try (Arena scratch = Arena.ofShared()) {
            MemorySegment innerScratch = scratch.allocate(
                    Math.max(16, LocalPhases.scratchTuples(innerReceived[rank], localBits) * Tuples.TUPLE_LENGTH), 64);
            MemorySegment outerScratch = scratch.allocate(
                    Math.max(16, LocalPhases.scratchTuples(outerReceived[rank], localBits) * Tuples.TUPLE_LENGTH), 64);
            long afterWindows = System.nanoTime();

            // 3. network partitioning pass, flush, barrier
            long[] putNanos = new long[threads];
            long[] waitNanos = new long[threads];
            long[] fabricCpuNanos = new long[threads];
            long[] bytesBefore = new long[threads];
            int remotes = remoteCount;
            long networkCpu = Workers.run("network-partition", threads, t -> {
                NetworkPartitioner partitioner = new NetworkPartitioner(
                        group.lane(t),
                        buffers[t],
                        config.buffersPerPartition(),
                        config.bufferBytes(),
                        owners,
                        rank,
                        remoteIndex,
                        remotes);
                bytesBefore[t] = group.lane(t).bytesPut();
                partitioner.partition(
                        inner,
                        slice(innerTuples, t, threads),
                        slice(innerTuples, t + 1, threads),
                        mask,
                        innerWindow,
                        innerCursors[t]);
                partitioner.partition(
                        outer,
                        slice(outerTuples, t, threads),
                        slice(outerTuples, t + 1, threads),
                        mask,
                        outerWindow,
                        outerCursors[t]);
                partitioner.flush();
                putNanos[t] = partitioner.putNanos();
                waitNanos[t] = partitioner.waitNanos();
                fabricCpuNanos[t] = partitioner.fabricCpuNanos();
                bytesBefore[t] = group.lane(t).bytesPut() - bytesBefore[t];
            });
            long afterNetwork = System.nanoTime();
            collectives.barrier();
            long afterBarrier = System.nanoTime();

            // 4. local partitioning and build-probe
            long[] innerStart = new long[owned];
            long[] innerCount = new long[owned];
            long[] outerStart = new long[owned];
            long[] outerCount = new long[owned];
            for (int p = 0, at = 0; p < fanOut; p++) {
                if (owners[p] == rank) {
                    innerStart[at] = innerBase[p];
                    innerCount[at] = globalInner[p];
                    outerStart[at] = outerBase[p];
                    outerCount[at] = globalOuter[p];
                    at++;
                }
            }
            LocalPhases local = new LocalPhases(
                    innerWindow.segment(),
                    outerWindow.segment(),
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
            JoinResult mine = local.buildProbe(threads);
            long end = System.nanoTime();

            long[] sums = collectives.allReduceSum(new long[] {mine.matches(), mine.checksum()});
            long network = afterNetwork - afterWindows;
            long put = mean(putNanos);
            long wait = mean(waitNanos);
            long bytes = 0;
            for (long b : bytesBefore) {
                bytes += b;
            }
            PhaseTimes times = new PhaseTimes(
                    afterHistogram - start,
                    afterWindows - afterHistogram,
                    network,
                    Math.max(0, network - put - wait),
                    put,
                    wait,
                    afterLocal - afterBarrier,
                    end - afterLocal,
                    end - start,
                    bytes,
                    afterScan - start,
                    histogramCpu / threads,
                    networkCpu / threads,
                    mean(fabricCpuNanos),
                    localCpu / threads,
                    local.buildProbeCpuNanos() / threads);
            innerWindow.close();
            outerWindow.close();
            for (MemoryRegion buffer : buffers) {
                buffer.close();
            }
            return new Outcome(new JoinResult(sums[0], sums[1]), mine, times);
        }
    }

    /** The first tuple of thread {@code t}'s slice of {@code tuples} (and so the end of thread {@code t - 1}'s). */
    static long slice(long tuples, int t, int threads) {
        return tuples * t / threads;
    }

    private static long mean(long[] values) {
        long sum = 0;
        for (long v : values) {
            sum += v;
        }
        return sum / values.length;
    }
}
