package dev.faro.bench.locks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.ClusterException;
import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.cluster.coordinator.NodeAnswer;
import dev.faro.fabric.FaroException;
import dev.faro.txn.tpcc.TpccIsolation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * {@code faro bench locks}: ETH19 chapter 5's experiments on a cluster of worker JVMs (one per node, each with its
 * lock servers and agents on the worker's fabric): the synthetic remote-ratio sweep with the model of Eqs. 5.1–5.4
 * fed by micro-benchmarks of the same run (Table 5.1), TPC-C serializable against read committed (§5.4.2), throughput against node
 * count (Fig. 5.5), the server:agent split (§5.4.2), and the latency breakdown (Fig. 5.6) with the round trip through
 * the same mailboxes measured in each run. Every point runs {@code runs} times, an experiment's points round-robin;
 * the median by throughput is kept.
 *
 * <p>Coordination code; one thread.
 */
public final class LocksBenchmark {

    private static final List<String> WORKER_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:-UsePerfData");

    private final LocksBenchmarkConfig config;
    private final ClusterStart joined;
    private final Consumer<String> progress;

    /** The running cluster, for {@link #workerPids()}; null outside {@link #run()}. */
    private volatile Coordinator running;

    /**
     * @param joined workers that join from elsewhere ({@code --listen}), or null for a local cluster
     */
    public LocksBenchmark(LocksBenchmarkConfig config, ClusterStart joined, Consumer<String> progress) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.joined = joined;
        this.progress = Objects.requireNonNull(progress, "progress is null");
    }

    /**
     * Runs the configured experiments and writes the report.
     *
     * @throws FaroException one line, when a worker fails or dies
     */
    public LocksReport run() {
        Instant startedAt = Instant.now();
        ClusterStart start = joined != null
                ? joined
                : ClusterStart.local(ClusterConfig.local(config.nodes())
                        .withProvider(config.provider())
                        .withWorkerHeap("256m")
                        .withJvmOptions(WORKER_JVM_OPTIONS)
                        .withHeartbeat(Duration.ofSeconds(1), Duration.ofSeconds(10)));
        Map<String, List<LocksResult>> results = new LinkedHashMap<>();
        try (Coordinator coordinator = start.start(progress)) {
            running = coordinator;
            if (coordinator.nodes() < config.nodes()) {
                throw new IllegalArgumentException(
                        "--nodes " + config.nodes() + " needs as many workers; " + coordinator.nodes() + " joined");
            }
            // local workers share this host: each node on its share of the CPUs, unless --no-pin
            LocksCase base = config.baseCase().withSharedHost(joined == null && config.pinned());
            for (String experiment : config.experiments()) {
                List<LocksCase> cases = switch (experiment) {
                    case "remote" ->
                        config.remotePercents().stream()
                                .map(base::withSynthetic)
                                .toList();
                    case "isolation" ->
                        List.of(base.withTpcc(TpccIsolation.SERIALIZABLE), base.withTpcc(TpccIsolation.READ_COMMITTED));
                    case "nodes" ->
                        nodeCounts().stream()
                                .map(n -> base.withTpcc(TpccIsolation.SERIALIZABLE)
                                        .withNodes(n))
                                .toList();
                    case "contention" ->
                        LocksBenchmarkConfig.HOT_PERCENTS.stream()
                                .map(hot -> base.withContention(config.nodes() < 2 ? 0 : 1, hot))
                                .toList();
                    case "roles" ->
                        roleSplits().stream()
                                .map(split -> base.withTpcc(TpccIsolation.SERIALIZABLE)
                                        .withRoles(split[0], split[1]))
                                .toList();
                    default -> throw new IllegalStateException("unknown experiment " + experiment);
                };
                results.put(experiment, measure(coordinator, cases));
            }
        } finally {
            running = null;
        }
        return LocksReport.write(config, results, startedAt, Duration.between(startedAt, Instant.now()));
    }

    /** The workers' process ids while {@link #run()} runs (for failure tests); empty otherwise. */
    public List<Long> workerPids() {
        Coordinator coordinator = running;
        return coordinator == null ? List.of() : coordinator.workerPids();
    }

    /** 1, 2, 4, ... up to the configured node count (which is always included). */
    private List<Integer> nodeCounts() {
        List<Integer> counts = new ArrayList<>();
        for (int n = 1; n < config.nodes(); n *= 2) {
            counts.add(n);
        }
        counts.add(config.nodes());
        return counts;
    }

    /** Splits of the configured per-node thread count between servers and agents, as §5.4.2 varies them. */
    private List<int[]> roleSplits() {
        int threads = config.serversPerNode() + config.agentsPerNode();
        List<int[]> splits = new ArrayList<>();
        for (int servers = 1; servers < threads; servers++) {
            splits.add(new int[] {servers, threads - servers});
        }
        return splits;
    }

    /**
     * Runs every case {@code runs} times, round-robin (case 1, case 2, ..., case 1, ...), so that a change in the
     * machine's load during the experiment touches every case alike (the isolation levels' ratio, the sweep's shape);
     * keeps each case's median run by throughput.
     */
    private List<LocksResult> measure(Coordinator coordinator, List<LocksCase> cases) {
        List<List<LocksResult>> runs = new ArrayList<>();
        cases.forEach(lockCase -> runs.add(new ArrayList<>()));
        for (int run = 0; run < config.runs(); run++) {
            for (int i = 0; i < cases.size(); i++) {
                LocksCase lockCase = cases.get(i);
                progress.accept("bench locks: " + lockCase.label() + (config.runs() > 1 ? ", run " + (run + 1) : ""));
                runs.get(i).add(runOnce(coordinator, lockCase));
            }
        }
        List<LocksResult> medians = new ArrayList<>();
        for (List<LocksResult> caseRuns : runs) {
            caseRuns.sort(Comparator.comparingDouble(LocksResult::transactionsPerSecond));
            medians.add(caseRuns.get(caseRuns.size() / 2));
        }
        return medians;
    }

    private LocksResult runOnce(Coordinator coordinator, LocksCase lockCase) {
        Duration timeout =
                Duration.ofMillis(lockCase.warmupMs() + lockCase.durationMs()).plusSeconds(60);
        List<NodeAnswer> answers;
        try {
            answers =
                    coordinator.runOnEach(lockCase.nodes(), LocksBenchHandler.TYPE, node -> lockCase.toJson(), timeout);
        } catch (ClusterException e) {
            throw new FaroException(e.category(), lockCase.label() + ": " + e.getMessage());
        }
        NodeAnswer failed = null;
        for (NodeAnswer answer : answers) {
            // the root cause first: a node that died or stopped answering, over the nodes that lost it
            if (!answer.succeeded()
                    && (failed == null || answer.failure().kind() != ClusterException.Kind.TASK_FAILED)) {
                failed = answer;
            }
        }
        if (failed != null) {
            throw new FaroException(
                    failed.failure().category(),
                    "node " + failed.node() + " failed " + lockCase.label() + ": "
                            + failed.failure().getMessage());
        }
        List<JsonNode> replies = new ArrayList<>();
        for (NodeAnswer answer : answers) {
            replies.add(answer.reply().result());
        }
        return LocksResult.merge(lockCase, replies);
    }
}
