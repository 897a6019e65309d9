package dev.faro.bench.join;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.join.JoinResult;
import dev.faro.join.radix.LocalRadixJoin;
import dev.faro.join.radix.PhaseTimes;
import dev.faro.join.radix.RadixHashJoin;
import dev.faro.join.rma.RmaConfig;
import dev.faro.join.rma.RmaGroup;
import dev.faro.join.sortmerge.SortMergeJoin;
import dev.faro.join.sortmerge.SortMergeMicroBenchmarks;
import dev.faro.join.sortmerge.SortMergePhaseTimes;
import dev.faro.join.workload.JoinWorkload;
import dev.faro.join.workload.Tuples;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Cluster task {@value #TYPE}: this node's part of one {@link JoinCase}. A distributed case generates the node's
 * share of R and S, opens an {@link RmaGroup} on the worker's fabric (bootstrapped through the task's exchange,
 * every wait cancellable by the coordinator), optionally measures the fabric's bandwidth from rank 0 to rank 1, and
 * runs the radix hash join {@code warmups + runs} times (a sort-merge case measures the bandwidth at its run size and
 * a curve of message sizes too). A single-process case (node 0 only) generates every node's share and runs
 * {@link LocalRadixJoin}; a single-process sort-merge case runs {@link SortMergeMicroBenchmarks} on {@code nodes x threads} threads at
 * once, each on one join thread's share. Replies {@code {"runs": [<phase times and result>...], "bandwidth": B/s}}.
 * A failure (a peer that died: {@code NETWORK}) fails the task with its one-line message.
 *
 * <p>Coordination code.
 */
public final class JoinBenchHandler implements TaskHandler {

    /** The task type. */
    public static final String TYPE = "bench.join";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws Exception {
        JoinCase joinCase = JoinCase.fromJson(payload);
        JoinWorkload workload = joinCase.workload();
        ObjectNode reply = JsonNodeFactory.instance.objectNode();
        ArrayNode runs = reply.putArray("runs");
        try (Arena arena = Arena.ofShared()) {
            if (!joinCase.distributed() && joinCase.sortMerge()) {
                // the sort-merge join's micro-benchmarks: as many threads at once as the join runs on the host
                // (nodes x threads), each on what one thread of the join works on: a node's volume over T, cut into
                // the join's N x T key ranges and merged and matched as one (its fan-in the join's: N senders' runs
                // of one range), so that a component lasts as long as the join's phase and meets the same
                // scheduling on the cores; the data is a one-node workload of that size, so that, as in each key
                // range of the join, every outer key meets its inner keys (one node's share of an N-node workload
                // matches only 1/N of its keys, and the merge-join scan over such data mispredicts where the join's
                // does not)
                int threads = joinCase.nodes() * joinCase.config().threads();
                JoinWorkload slice = new JoinWorkload(
                        Math.max(1, workload.innerPerNode() / joinCase.config().threads()),
                        workload.outerRatio(),
                        workload.selectivity(),
                        workload.zipf(),
                        workload.seed());
                MemorySegment inner = slice.inner(arena, 0, 1);
                MemorySegment outer = slice.outer(arena, 0, 1);
                for (int run = 0; run < joinCase.warmups() + joinCase.runs(); run++) {
                    SortMergeMicroBenchmarks.Times times =
                            SortMergeMicroBenchmarks.Times.phase(SortMergeMicroBenchmarks.measureConcurrently(
                                    joinCase.sortMergeConfig(),
                                    threads,
                                    threads,
                                    threads,
                                    inner,
                                    slice.innerPerNode(),
                                    outer,
                                    slice.outerPerNode()));
                    if (run >= joinCase.warmups()) {
                        runs.add(SortMergeRates.encode(times));
                    }
                    context.throwIfCancelled();
                }
                return TaskReply.of(reply);
            }
            if (!joinCase.distributed()) {
                int nodes = joinCase.nodes();
                long innerTotal = workload.innerPerNode() * nodes;
                reply.put("passes", joinCase.config().localBitsFor(innerTotal) > 0 ? 2 : 1);
                long outerTotal = workload.outerPerNode() * nodes;
                MemorySegment inner = arena.allocate(innerTotal * Tuples.TUPLE_LENGTH, 64);
                MemorySegment outer = arena.allocate(outerTotal * Tuples.TUPLE_LENGTH, 64);
                for (int node = 0; node < nodes; node++) {
                    // shared, not confined: a confined session's accesses slow every segment access of this worker
                    // (see SortMergeMicroBenchmarks), the distributed joins' it runs later too
                    try (Arena part = Arena.ofShared()) {
                        long innerBytes = workload.innerPerNode() * Tuples.TUPLE_LENGTH;
                        long outerBytes = workload.outerPerNode() * Tuples.TUPLE_LENGTH;
                        inner.asSlice(node * innerBytes, innerBytes).copyFrom(workload.inner(part, node, nodes));
                        outer.asSlice(node * outerBytes, outerBytes).copyFrom(workload.outer(part, node, nodes));
                    }
                    context.throwIfCancelled();
                }
                for (int run = 0; run < joinCase.warmups() + joinCase.runs(); run++) {
                    CpuShare share = CpuShare.start(joinCase.config().threads());
                    LocalRadixJoin.Outcome outcome =
                            LocalRadixJoin.run(joinCase.config(), inner, innerTotal, outer, outerTotal);
                    if (run >= joinCase.warmups()) {
                        runs.add(encode(outcome.times(), outcome.result(), outcome.result())
                                .put("cpuShare", share.stop()));
                    }
                    context.throwIfCancelled();
                }
                return TaskReply.of(reply);
            }
            int nodes = context.nodes();
            reply.put("passes", joinCase.config().localBitsFor(workload.innerPerNode() * nodes) > 0 ? 2 : 1);
            MemorySegment inner = workload.inner(arena, context.nodeIndex(), nodes);
            MemorySegment outer = workload.outer(arena, context.nodeIndex(), nodes);
            String name = "join-" + context.taskId(); // the same at every node of the round, replacements included
            RmaConfig rma = joinCase.sortMerge()
                    ? SortMergeJoin.rmaConfig(joinCase.sortMergeConfig())
                    : RadixHashJoin.rmaConfig(joinCase.config());
            try (RmaGroup group = RmaGroup.open(
                    context.fabric(),
                    context.exchange(),
                    name,
                    rma.withBandwidthCap(joinCase.bandwidthCap()),
                    context::throwIfCancelled)) {
                if (joinCase.bandwidthBytes() > 0 && nodes > 1) {
                    // the radix join's buffers, or the sort-merge join's runs, with a curve around the latter
                    int messageBytes = joinCase.sortMerge()
                            ? joinCase.sortMergeConfig().runTuples() * Tuples.TUPLE_LENGTH
                            : joinCase.config().bufferBytes();
                    reply.put("bandwidth", BandwidthProbe.measure(group, joinCase.bandwidthBytes(), messageBytes));
                    if (joinCase.sortMerge()) {
                        ArrayNode curve = reply.putArray("bandwidthCurve");
                        for (int size : BandwidthProbe.CURVE_BYTES) {
                            curve.addArray()
                                    .add(size)
                                    .add(BandwidthProbe.measure(group, joinCase.bandwidthBytes() / 4, size));
                        }
                    }
                }
                for (int run = 0; joinCase.sortMerge() && run < joinCase.warmups() + joinCase.runs(); run++) {
                    CpuShare share = CpuShare.start(joinCase.config().threads());
                    SortMergeJoin.Outcome outcome = SortMergeJoin.run(
                            group,
                            joinCase.sortMergeConfig(),
                            inner,
                            workload.innerPerNode(),
                            outer,
                            workload.outerPerNode());
                    if (run >= joinCase.warmups()) {
                        runs.add(encode(outcome.times(), outcome.global(), outcome.local())
                                .put("cpuShare", share.stop()));
                    }
                }
                for (int run = 0; !joinCase.sortMerge() && run < joinCase.warmups() + joinCase.runs(); run++) {
                    CpuShare share = CpuShare.start(joinCase.config().threads());
                    RadixHashJoin.Outcome outcome = RadixHashJoin.run(
                            group, joinCase.config(), inner, workload.innerPerNode(), outer, workload.outerPerNode());
                    if (run >= joinCase.warmups()) {
                        runs.add(encode(outcome.times(), outcome.global(), outcome.local())
                                .put("cpuShare", share.stop()));
                    }
                }
                group.finish();
            }
        }
        return TaskReply.of(reply);
    }

    private static ObjectNode encode(PhaseTimes times, JoinResult global, JoinResult local) {
        ObjectNode run = JsonNodeFactory.instance.objectNode();
        run.put("histogram", times.histogramNanos());
        run.put("window", times.windowNanos());
        run.put("network", times.networkNanos());
        run.put("networkCompute", times.networkComputeNanos());
        run.put("networkPut", times.networkPutNanos());
        run.put("networkWait", times.networkWaitNanos());
        run.put("localPartition", times.localPartitionNanos());
        run.put("buildProbe", times.buildProbeNanos());
        run.put("total", times.totalNanos());
        run.put("bytesPut", times.bytesPut());
        run.put("histogramScan", times.histogramScanNanos());
        run.put("histogramCpu", times.histogramCpuNanos());
        run.put("networkCpu", times.networkCpuNanos());
        run.put("networkFabricCpu", times.networkFabricCpuNanos());
        run.put("localPartitionCpu", times.localPartitionCpuNanos());
        run.put("buildProbeCpu", times.buildProbeCpuNanos());
        run.put("matches", global.matches());
        run.put("checksum", global.checksum());
        run.put("localMatches", local.matches());
        return run;
    }

    /**
     * The sort-merge join's phases in the radix join's slots: partitioning as histogram (its kernels as the scan),
     * sort as the network pass (compute, put, wait), merge as the local pass, match as build-probe
     * ({@link SortMergeRow} names them).
     */
    private static ObjectNode encode(SortMergePhaseTimes times, JoinResult global, JoinResult local) {
        return encode(
                new PhaseTimes(
                        times.partitionNanos(),
                        times.windowNanos(),
                        times.sortNanos(),
                        times.sortComputeNanos(),
                        times.sortPutNanos(),
                        times.sortWaitNanos(),
                        times.mergeNanos(),
                        times.matchNanos(),
                        times.totalNanos(),
                        times.bytesPut(),
                        times.partitionKernelsNanos(),
                        times.partitionCpuNanos(),
                        times.sortCpuNanos(),
                        times.sortFabricCpuNanos(),
                        times.mergeCpuNanos(),
                        times.matchCpuNanos()),
                global,
                local);
    }

    /** Decodes one run of a reply. */
    static PhaseTimes times(JsonNode run) {
        return new PhaseTimes(
                run.path("histogram").asLong(),
                run.path("window").asLong(),
                run.path("network").asLong(),
                run.path("networkCompute").asLong(),
                run.path("networkPut").asLong(),
                run.path("networkWait").asLong(),
                run.path("localPartition").asLong(),
                run.path("buildProbe").asLong(),
                run.path("total").asLong(),
                run.path("bytesPut").asLong(),
                run.path("histogramScan").asLong(),
                run.path("histogramCpu").asLong(),
                run.path("networkCpu").asLong(),
                run.path("networkFabricCpu").asLong(),
                run.path("localPartitionCpu").asLong(),
                run.path("buildProbeCpu").asLong());
    }

    /** The result of one run of a reply. */
    static JoinResult result(JsonNode run) {
        return new JoinResult(run.path("matches").asLong(), run.path("checksum").asLong());
    }
}
