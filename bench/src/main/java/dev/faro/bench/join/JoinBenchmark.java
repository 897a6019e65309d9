package dev.faro.bench.join;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.bench.report.Medians;
import dev.faro.cluster.ClusterException;
import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.cluster.coordinator.LocalCluster;
import dev.faro.cluster.coordinator.NodeAnswer;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.shm.ShmFabricProvider;
import dev.faro.join.JoinResult;
import dev.faro.join.radix.PhaseTimes;
import dev.faro.join.radix.RadixJoinConfig;
import dev.faro.join.workload.JoinWorkload;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * {@code faro bench join}: the ETH19 distributed radix hash join on cluster worker JVMs over the fabric, next to the
 * single-process radix join on the same total cores (node 0, {@code nodes x threads} threads, all nodes' data) and
 * to the thesis's model fed by per-core rates measured in the same invocation (the single-process join on one thread
 * and one node's data) and the fabric bandwidth measured before each distributed case. For every workload, node
 * count, thread count and buffer count k one {@link JoinRow}; {@link JoinBenchReport} prints and writes them.
 *
 * <p>Coordination code: one thread sends the cases, one at a time.
 */
public final class JoinBenchmark {

    /** The workers' heap: the relations, windows and buffers are off-heap. */
    static final String WORKER_HEAP = "256m";

    /** Serial GC; native memory for the relations beyond the heap's size (FFM allocations count as direct). */
    static final List<String> WORKER_JVM_OPTIONS =
            List.of("-XX:+UseSerialGC", "-XX:-UsePerfData", "-XX:MaxDirectMemorySize=64g");

    /** How long one case (generation, warm-up and timed runs on every node) may take. */
    static final Duration CASE_TIMEOUT = Duration.ofMinutes(15);

    /** The fewest timed runs of a micro-benchmark. */
    static final int MICRO_RUNS = 5;

    private final JoinBenchConfig config;
    private final Consumer<String> progress;

    public JoinBenchmark(JoinBenchConfig config, Consumer<String> progress) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.progress = Objects.requireNonNull(progress, "progress is null");
    }

    /** Starts local workers (as many as the largest node count), measures, and writes the report. */
    public JoinBenchReport run() {
        int nodes = config.nodeCounts().getLast();
        ClusterConfig cluster = ClusterConfig.local(nodes)
                .withProvider(config.provider())
                .withWorkerHeap(WORKER_HEAP)
                .withJvmOptions(WORKER_JVM_OPTIONS)
                .withHeartbeat(Duration.ofSeconds(1), Duration.ofSeconds(10));
        if (config.provider().equals(ShmFabricProvider.NAME)) {
            // windows are written many times: fill the page tables when a peer's window key is imported
            cluster = cluster.withProviderOption(ShmFabricProvider.POPULATE_IMPORTED_OPTION, "true");
        }
        progress.accept("starting " + nodes + " worker JVMs (" + config.provider() + " fabric)");
        try (Coordinator coordinator = LocalCluster.start(cluster)) {
            return run(coordinator);
        }
    }

    /** Measures on {@code coordinator}'s workers (at least the largest node count) and writes the report. */
    public JoinBenchReport run(Coordinator coordinator) {
        if (coordinator.nodes() < config.nodeCounts().getLast()) {
            throw new IllegalArgumentException(
                    "--nodes " + config.nodeCounts().getLast() + " needs as many workers, not " + coordinator.nodes());
        }
        Instant started = Instant.now();
        List<JoinRow> rows = new ArrayList<>();
        List<SortMergeRow> sortMergeRows = new ArrayList<>();
        for (String name : config.workloads()) {
            JoinWorkload perNode = JoinWorkloads.parse(name, config.innerPerNode(), 1);
            RadixJoinConfig base = RadixJoinConfig.defaults(1)
                    .withNetworkBits(config.networkBits())
                    .withAssignment(JoinWorkloads.assignment(name));
            progress.accept(name + ": per-core rates (single-process join, 1 thread, one node's data)");
            JoinPoint rates = local(coordinator, 1, perNode, base);
            for (String scaling : config.scalings()) {
                for (int nodes : config.nodeCounts()) {
                    JoinWorkload workload = JoinWorkloads.parse(name, config.innerPerNode(scaling, nodes), 1);
                    for (int threads : config.threadCounts()) {
                        progress.accept(name + " (" + scaling + "): single-process radix join, " + nodes * threads
                                + " threads, " + nodes + " nodes' data");
                        JoinPoint reference = local(coordinator, nodes, workload, withThreads(base, nodes * threads));
                        for (long cap : config.bandwidthCaps()) {
                            for (int k : config.bufferCounts()) {
                                progress.accept(name + " (" + scaling + "): distributed radix join, " + nodes
                                        + " nodes x " + threads
                                        + " threads, k = " + k
                                        + (cap > 0 ? ", bandwidth capped at " + (cap >> 20) + " MiB/s per node" : ""));
                                RadixJoinConfig join =
                                        withThreads(base, threads).withBuffers(k, config.bufferBytes());
                                JoinPoint measured = point(
                                        nodes,
                                        workload,
                                        distributedReplies(coordinator, nodes, workload, join, cap, false));
                                rows.add(
                                        new JoinRow(name, scaling, nodes, threads, k, cap, measured, reference, rates));
                            }
                            if (config.sortMerge()) {
                                progress.accept(name + ": sort-merge micro-benchmarks (" + nodes * threads
                                        + " threads at once, each on one join thread's share in " + nodes * threads
                                        + " key ranges)");
                                JsonNode smjRates =
                                        sortMergeRates(coordinator, nodes, workload, withThreads(base, threads));
                                progress.accept(name + " (" + scaling + "): distributed sort-merge join, " + nodes
                                        + " nodes x " + threads + " threads");
                                List<JsonNode> replies = distributedReplies(
                                        coordinator, nodes, workload, withThreads(base, threads), cap, true);
                                JoinPoint sortMerge = point(nodes, workload, replies);
                                sortMergeRows.add(new SortMergeRow(
                                        name,
                                        nodes,
                                        threads,
                                        cap,
                                        sortMerge,
                                        rows.getLast(),
                                        SortMergeRates.of(smjRates),
                                        SortMergeRates.ofCpu(smjRates),
                                        bandwidthCurve(replies.getFirst())));
                            }
                        }
                    }
                }
            }
        }
        return JoinBenchReport.write(config, rows, sortMergeRows, started, Duration.between(started, Instant.now()));
    }

    /**
     * The timed runs of a micro-benchmark (the single-process join, the sort-merge components): at least
     * {@link #MICRO_RUNS}, since the model takes their best (a micro-benchmark's peak, the thesis's convention).
     */
    private int microRuns() {
        return Math.max(config.runs(), MICRO_RUNS);
    }

    private static RadixJoinConfig withThreads(RadixJoinConfig config, int threads) {
        return new RadixJoinConfig(
                threads,
                config.networkBits(),
                config.localBits(),
                config.buffersPerPartition(),
                config.bufferBytes(),
                config.assignment());
    }

    private JoinPoint local(Coordinator coordinator, int nodes, JoinWorkload workload, RadixJoinConfig join) {
        JoinCase joinCase = new JoinCase(false, false, nodes, workload, join, config.warmups(), microRuns(), 0, 0);
        JsonNode reply = answers(coordinator, 1, joinCase).getFirst();
        List<List<PhaseTimes>> runs = new ArrayList<>();
        List<JoinResult> results = new ArrayList<>();
        for (JsonNode run : reply.path("runs")) {
            runs.add(List.of(JoinBenchHandler.times(run)));
            results.add(JoinBenchHandler.result(run));
        }
        long tuples = (workload.innerPerNode() + workload.outerPerNode()) * nodes;
        return JoinPoint.of(tuples, runs, results, 0, reply.path("passes").asInt(1), medianCpuShare(reply));
    }

    /** The median CPU share over the runs of {@code reply} that report one; NaN if none does. */
    private static double medianCpuShare(JsonNode reply) {
        List<Double> shares = new ArrayList<>();
        for (JsonNode run : reply.path("runs")) {
            if (run.has("cpuShare") && !run.path("cpuShare").isNull()) {
                shares.add(run.path("cpuShare").asDouble());
            }
        }
        return Medians.of(shares);
    }

    /**
     * The sort-merge micro-benchmarks of a point: on node 0, {@code nodes x T} threads at once (the threads the join's
     * phases run on the host), each over one join thread's share (a node's volume over T), so that each rate is one
     * thread's share of the cores.
     */
    private JsonNode sortMergeRates(Coordinator coordinator, int nodes, JoinWorkload workload, RadixJoinConfig join) {
        JoinCase joinCase = new JoinCase(false, true, nodes, workload, join, config.warmups(), microRuns(), 0, 0);
        return answers(coordinator, 1, joinCase).getFirst();
    }

    /** The bandwidth curve of a sort-merge case's reply: (message bytes, bytes per second) pairs. */
    private static List<double[]> bandwidthCurve(JsonNode reply) {
        List<double[]> curve = new ArrayList<>();
        for (JsonNode pair : reply.path("bandwidthCurve")) {
            curve.add(new double[] {pair.get(0).asDouble(), pair.get(1).asDouble()});
        }
        return curve;
    }

    private List<JsonNode> distributedReplies(
            Coordinator coordinator,
            int nodes,
            JoinWorkload workload,
            RadixJoinConfig join,
            long cap,
            boolean sortMerge) {
        // with a cap, a quarter second of the capped link is enough to measure it
        long bandwidthBytes =
                nodes == 1 ? 0 : cap > 0 ? Math.min(config.bandwidthBytes(), cap / 4) : config.bandwidthBytes();
        JoinCase joinCase = new JoinCase(
                true, sortMerge, nodes, workload, join, config.warmups(), config.runs(), bandwidthBytes, cap);
        return answers(coordinator, nodes, joinCase);
    }

    private JoinPoint point(int nodes, JoinWorkload workload, List<JsonNode> replies) {
        List<List<PhaseTimes>> runs = new ArrayList<>();
        List<JoinResult> results = new ArrayList<>();
        for (int run = 0; run < config.runs(); run++) {
            List<PhaseTimes> byNode = new ArrayList<>();
            for (JsonNode reply : replies) {
                JsonNode one = reply.path("runs").get(run);
                byNode.add(JoinBenchHandler.times(one));
                results.add(JoinBenchHandler.result(one));
            }
            runs.add(byNode);
        }
        long tuples = (workload.innerPerNode() + workload.outerPerNode()) * nodes;
        JsonNode first = replies.getFirst();
        return JoinPoint.of(
                tuples,
                runs,
                results,
                first.path("bandwidth").asDouble(0),
                first.path("passes").asInt(1),
                replies.stream()
                        .mapToDouble(reply -> medianCpuShare(reply))
                        .average()
                        .orElse(Double.NaN));
    }

    /**
     * Runs {@code joinCase} on the first {@code nodes} workers and returns their replies by node.
     *
     * @throws FaroException one line naming the first node that failed and why
     */
    static List<JsonNode> answers(Coordinator coordinator, int nodes, JoinCase joinCase) {
        return replies(coordinator.runOnEach(nodes, JoinBenchHandler.TYPE, node -> joinCase.toJson(), CASE_TIMEOUT));
    }

    /**
     * The replies of a round by node.
     *
     * @throws FaroException one line naming the node whose failure explains the round's (a dead worker first)
     */
    static List<JsonNode> replies(List<NodeAnswer> answers) {
        List<JsonNode> replies = new ArrayList<>();
        NodeAnswer firstFailure = null;
        for (NodeAnswer answer : answers) {
            if (!answer.succeeded()) {
                if (firstFailure == null
                        || rank(answer) < rank(firstFailure)
                        || rank(answer) == rank(firstFailure) && answer.atNanos() - firstFailure.atNanos() < 0) {
                    firstFailure = answer;
                }
                continue;
            }
            replies.add(answer.reply().result());
        }
        if (firstFailure != null) {
            ClusterException failure = firstFailure.failure();
            throw new FaroException(
                    failure.category(), "node " + firstFailure.node() + " failed the join: " + failure.getMessage());
        }
        return replies;
    }

    /** A dead or silent worker explains the others' failures best; then the earliest failure. */
    private static int rank(NodeAnswer answer) {
        ClusterException.Kind kind = answer.failure().kind();
        return kind == ClusterException.Kind.WORKER_DIED || kind == ClusterException.Kind.WORKER_UNRESPONSIVE ? 0 : 1;
    }
}
