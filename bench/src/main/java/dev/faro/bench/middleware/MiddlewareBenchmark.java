package dev.faro.bench.middleware;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.ClusterException;
import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.cluster.coordinator.NodeAnswer;
import dev.faro.fabric.FaroException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * {@code faro bench middleware}: DAIS16's synthetic benchmark on a cluster of worker JVMs (one per process). V1 runs
 * the 2-stage shuffle over NIO sockets and over the middleware on the fabric, at each process count and workers per
 * process, in one invocation (V3's notification and block counts and V4's connection counts come from the same
 * runs); V2 sweeps the write threshold at 2 workers per process. Every point runs {@code runs} times; the median
 * time is kept. Every run's rows are checked (count and sum after the second shuffle).
 *
 * <p>Coordination code; one thread.
 */
public final class MiddlewareBenchmark {

    private static final List<String> WORKER_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:-UsePerfData");

    private final MiddlewareBenchmarkConfig config;
    private final ClusterStart joined;
    private final Consumer<String> progress;

    /** V1's transports; tests of the middleware alone leave NIO out. */
    private List<String> transports = List.of(MiddlewareCase.NIO, MiddlewareCase.FABRIC);

    /** The running cluster, for {@link #workerPids()}; null outside {@link #run()}. */
    private volatile Coordinator running;

    /** Every failed node's one-line failure from the last failed round (for failure tests); empty otherwise. */
    private volatile List<String> nodeFailures = List.of();

    /**
     * @param joined workers that join from elsewhere ({@code --listen}), or null for a local cluster
     */
    public MiddlewareBenchmark(MiddlewareBenchmarkConfig config, ClusterStart joined, Consumer<String> progress) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.joined = joined;
        this.progress = Objects.requireNonNull(progress, "progress is null");
    }

    /**
     * Runs the configured experiments and writes the report.
     *
     * @throws FaroException one line, when a worker fails or dies
     */
    public MiddlewareReport run() {
        Instant startedAt = Instant.now();
        ClusterStart start = joined != null
                ? joined
                : ClusterStart.local(ClusterConfig.local(config.maxProcesses())
                        .withProvider(config.provider())
                        .withWorkerHeap(config.workerHeapMiB() + "m")
                        .withJvmOptions(WORKER_JVM_OPTIONS)
                        .withHeartbeat(Duration.ofSeconds(1), Duration.ofSeconds(10)));
        List<MiddlewareResult> v1 = new ArrayList<>();
        List<MiddlewareResult> v2 = new ArrayList<>();
        List<TpccFigureResult> fig5 = new ArrayList<>();
        try (Coordinator coordinator = start.start(progress)) {
            running = coordinator;
            if (coordinator.nodes() < config.maxProcesses()) {
                throw new IllegalArgumentException("--processes " + config.maxProcesses() + " needs as many workers; "
                        + coordinator.nodes() + " joined");
            }
            for (int processes : config.processes()) {
                MiddlewareCase base = config.baseCase(processes);
                if (config.experiments().contains("v1")) {
                    for (String transport : transports) {
                        for (int workers : config.workers()) {
                            v1.add(measure(
                                    coordinator, base.withTransport(transport).withWorkers(workers)));
                        }
                    }
                }
                if (config.experiments().contains("v2")) {
                    for (int threshold : config.thresholds()) {
                        v2.add(measure(coordinator, base.withWorkers(2).withWriteThreshold(threshold)));
                    }
                }
            }
            if (config.experiments().contains("fig5")) {
                fig5.addAll(new TpccFigure(config, progress).run(coordinator));
            }
        } finally {
            running = null;
        }
        return MiddlewareReport.write(config, v1, v2, fig5, startedAt, Duration.between(startedAt, Instant.now()));
    }

    private MiddlewareResult measure(Coordinator coordinator, MiddlewareCase point) {
        List<Double> seconds = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        List<JsonNode> last = null;
        for (int run = 0; run < config.runs(); run++) {
            progress.accept("bench middleware: " + point.label() + (config.runs() > 1 ? ", run " + (run + 1) : ""));
            List<JsonNode> replies = runOnce(coordinator, point);
            long slowestNs = 0;
            long cpuNs = 0;
            for (JsonNode reply : replies) {
                slowestNs = Math.max(slowestNs, reply.path("elapsedNs").asLong());
                cpuNs += reply.path("cpuNs").asLong();
            }
            seconds.add(slowestNs / 1e9);
            cpu.add(cpuNs / 1e9);
            last = replies;
        }
        return MiddlewareResult.merge(point, median(seconds), median(cpu), last);
    }

    private static double median(List<Double> values) {
        double[] sorted =
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[sorted.length / 2];
    }

    private List<JsonNode> runOnce(Coordinator coordinator, MiddlewareCase point) {
        // a hang guard only (a dead worker is the runtime's to notice): 20 k integers a second over the whole cluster,
        // which a loaded 2-core machine beats at 8 processes of 4 NIO workers (5 M each timed out at 220 s there)
        Duration timeout = Duration.ofSeconds(120 + point.rowsPerProcess() * point.processes() / 20_000);
        List<NodeAnswer> answers;
        try {
            answers = coordinator.runOnEach(
                    point.processes(), MiddlewareBenchHandler.TYPE, node -> point.toJson(), timeout);
        } catch (ClusterException e) {
            throw new FaroException(e.category(), point.label() + ": " + e.getMessage());
        }
        NodeAnswer failed = null;
        List<String> failures = new ArrayList<>();
        for (NodeAnswer answer : answers) {
            if (!answer.succeeded()) {
                failures.add("node " + answer.node() + ": " + answer.failure().getMessage());
            }
            if (!answer.succeeded()
                    && (failed == null || answer.failure().kind() != ClusterException.Kind.TASK_FAILED)) {
                failed = answer;
            }
        }
        if (failed != null) {
            nodeFailures = List.copyOf(failures);
            throw new FaroException(
                    failed.failure().category(),
                    "process " + failed.node() + " failed " + point.label() + ": "
                            + failed.failure().getMessage());
        }
        List<JsonNode> replies = new ArrayList<>();
        long rows = 0;
        long sum = 0;
        for (NodeAnswer answer : answers) {
            JsonNode reply = answer.reply().result();
            replies.add(reply);
            rows += reply.path("rows").asLong();
            sum += reply.path("sum").asLong();
        }
        long[] expected = expected(point);
        if (rows != expected[0] || sum != expected[1]) {
            throw new IllegalStateException(point.label() + ": rows lost or duplicated: received " + rows
                    + " rows (sum " + sum + "), generated " + expected[0] + " (sum " + expected[1] + ")");
        }
        return replies;
    }

    /** Runs V1 over these transports only ({@code fabric}, {@code nio}); for tests. */
    MiddlewareBenchmark onlyTransports(List<String> only) {
        this.transports = List.copyOf(only);
        return this;
    }

    /** The workers' process ids while {@link #run()} runs (for failure tests); empty otherwise. */
    public List<Long> workerPids() {
        Coordinator coordinator = running;
        return coordinator == null ? List.of() : coordinator.workerPids();
    }

    /** Every failed node's one-line failure from the round that failed the run; empty if none failed. */
    public List<String> nodeFailures() {
        return nodeFailures;
    }

    /** Rows and their sum that the plan generates (what the second shuffle must deliver). */
    static long[] expected(MiddlewareCase point) {
        long perWorker = point.rowsPerProcess() / point.workersPerProcess();
        long rows = 0;
        long sum = 0;
        for (int node = 0; node < point.processes(); node++) {
            for (int local = 0; local < point.workersPerProcess(); local++) {
                long first = point.rowsPerProcess() * node + perWorker * local;
                rows += perWorker;
                sum += perWorker * first + perWorker * (perWorker - 1) / 2;
            }
        }
        return new long[] {rows, sum};
    }
}
