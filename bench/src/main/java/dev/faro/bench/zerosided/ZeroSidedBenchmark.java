package dev.faro.bench.zerosided;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.bench.report.MachineInfo;
import dev.faro.bench.report.Medians;
import dev.faro.bench.report.RunMetadata;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.cluster.coordinator.LocalCluster;
import dev.faro.fabric.FaroException;
import dev.faro.zerosided.link.LinkKind;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The coordinator of {@code faro bench zerosided} (SIGMOD24 Fig. 6; digest V1/V4): starts a local cluster of three
 * worker JVMs (node 0 the switch, node 1 the producers' host, node 2 the consumers'), measures the switch's own
 * forwarding rate first ({@link ZeroSidedPoint#FORWARDING}), then for every flow count the aggregate throughput of
 * the zero-sided flows and of the CPU-driven baseline with each driver count, the runs of one flow count interleaved
 * so that a noisy machine hits all series alike. Writes the table (with the paper's column), CSV, JSON and PNG.
 *
 * <p>Coordination code; leaves no worker running when it returns or throws.
 */
public final class ZeroSidedBenchmark {

    static final String PAPER_FIG6 = "Fig. 6, 4 KiB: zero-sided scales with flows; 1 CPU core cannot drive all"
            + " flows, several match zero-sided (no numbers in the text)";

    private static final List<String> WORKER_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:-UsePerfData");
    private static final Duration ROUND_SLACK = Duration.ofSeconds(60);
    /** The least time an experiment's round may take (see {@link #round}). */
    private static final Duration EXPERIMENT_ROUND_BASE = Duration.ofMinutes(5);

    private final ZeroSidedBenchConfig config;
    private final Consumer<String> progress;
    private volatile Coordinator cluster;

    public ZeroSidedBenchmark(ZeroSidedBenchConfig config, Consumer<String> progress) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.progress = Objects.requireNonNull(progress, "progress is null");
    }

    /** What a run produced: the printed table and the files written. */
    public record Report(String table, Path csvFile, Path plotFile, Path metadataFile, List<Path> experimentFiles) {}

    /**
     * Runs every point and writes the report.
     *
     * @throws FaroException one line naming the node, when a worker fails or dies
     */
    public Report run() {
        MachineInfo machine = MachineInfo.collect();
        Instant startedAt = Instant.now();
        long startNs = System.nanoTime();
        ClusterConfig clusterConfig = ClusterConfig.local(ZeroSidedPointHandler.NODES)
                .withProvider(config.provider())
                .withWorkerHeap("512m")
                .withJvmOptions(WORKER_JVM_OPTIONS)
                .withExchangeTimeout(Duration.ofSeconds(
                        (long) (config.warmupSeconds() + config.seconds()) + ROUND_SLACK.toSeconds()));
        try (Coordinator started = LocalCluster.start(clusterConfig)) {
            cluster = started;
            progress.accept("measuring the switch's own forwarding rate (node 0, perfect NICs, no I/O)");
            List<Double> forwarding = new ArrayList<>();
            List<Double> forwardingPackets = new ArrayList<>();
            for (int run = 0; run < config.runs(); run++) {
                JsonNode reply = round(point(ZeroSidedPoint.FORWARDING, 1, 1)).get(0);
                forwarding.add(reply.path("bytesPerSecond").asDouble());
                forwardingPackets.add(reply.path("packetsPerSecond").asDouble());
            }
            Map<String, Map<Integer, List<Double>>> throughput = new LinkedHashMap<>();
            Map<String, Map<Integer, List<Double>>> cpu = new LinkedHashMap<>();
            Map<String, Map<Integer, List<Double>>> work = new LinkedHashMap<>();
            Map<Integer, List<Double>> communication = new LinkedHashMap<>();
            Map<Integer, List<Double>> retries = new LinkedHashMap<>();
            long highWater = 0;
            for (int flows : config.flows()) {
                for (int run = 0; run < config.runs(); run++) {
                    List<ZeroSidedPoint> points = new ArrayList<>();
                    points.add(point(ZeroSidedPoint.ZERO_SIDED, flows, 1));
                    for (int drivers : config.drivers()) {
                        points.add(point(ZeroSidedPoint.CPU_DRIVEN, flows, drivers));
                    }
                    for (ZeroSidedPoint point : points) {
                        progress.accept(String.format(
                                Locale.ROOT,
                                "%s, %d flow(s), run %d of %d",
                                point.series(),
                                flows,
                                run + 1,
                                config.runs()));
                        List<JsonNode> replies = round(point);
                        JsonNode consumers = replies.get(ZeroSidedPointHandler.CONSUMER_NODE);
                        JsonNode producers = replies.get(ZeroSidedPointHandler.PRODUCER_NODE);
                        add(
                                throughput,
                                point.series(),
                                flows,
                                consumers.path("bytesPerSecond").asDouble());
                        add(
                                work,
                                point.series(),
                                flows,
                                (producers.path("workUnits").asDouble()
                                                + consumers.path("workUnits").asDouble())
                                        / point.seconds());
                        add(
                                cpu,
                                point.series(),
                                flows,
                                producers.path("driverCpuNanos").asDouble() / 1e9);
                        if (point.mode().equals(ZeroSidedPoint.ZERO_SIDED)) {
                            communication
                                    .computeIfAbsent(flows, k -> new ArrayList<>())
                                    .add(producers.path("communicationNanos").asDouble()
                                            + consumers
                                                    .path("communicationNanos")
                                                    .asDouble());
                            JsonNode switchReply = replies.get(ZeroSidedPointHandler.SWITCH_NODE);
                            progress.accept("  switch: " + switchReply + " producers: " + producers + " consumers: "
                                    + consumers);
                            retries.computeIfAbsent(flows, k -> new ArrayList<>())
                                    .add(switchReply.path("retries").asDouble());
                            highWater = Math.max(
                                    highWater,
                                    switchReply.path("payloadHighWaterBytes").asLong());
                            if (switchReply.path("payloadBoundViolations").asLong() != 0) {
                                throw new IllegalStateException("the switch held more payload than was in flight");
                            }
                        }
                    }
                }
            }
            List<ExperimentResult> experiments = new ArrayList<>();
            for (String experiment : config.experiments()) {
                progress.accept(experiment + " (node 0: the switch, NICs and PU threads in one process)");
                ZeroSidedPoint point = point(experiment, 1, 1);
                experiments.add(ExperimentResult.fromJson(
                        round(point).get(ZeroSidedPointHandler.SWITCH_NODE).path("experiment")));
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - startNs);
            return ZeroSidedReport.write(
                    config,
                    Medians.of(forwarding),
                    Medians.of(forwardingPackets),
                    throughput,
                    cpu,
                    work,
                    communication,
                    retries,
                    highWater,
                    experiments,
                    new RunMetadata("zerosided", startedAt, elapsed, machine, parameters()));
        } finally {
            cluster = null;
        }
    }

    /** The workers' process ids by node while {@link #run()} runs, else empty (for failure tests). */
    List<Long> workerPids() {
        Coordinator running = cluster;
        return running == null ? List.of() : running.workerPids();
    }

    private ZeroSidedPoint point(String mode, int flows, int drivers) {
        return new ZeroSidedPoint(
                mode,
                flows,
                drivers,
                config.itemBytes(),
                config.capacity(),
                config.maxBatchBytes(),
                config.warmupSeconds(),
                config.seconds(),
                config.link(),
                config.runs(),
                config.pin(),
                config.endpointWork());
    }

    private List<JsonNode> round(ZeroSidedPoint point) {
        Duration timeout = Duration.ofMillis((long) ((point.warmupSeconds() + point.seconds()) * 1000))
                .plus(ROUND_SLACK);
        if (ZeroSidedExperiments.isExperiment(point.mode())) {
            // an experiment is many runs of many series (V5: 4 tuple sizes × 4 series × --runs) and fails by itself
            // when a series stalls (each has a 30 s watchdog); the round's limit only catches a dead worker
            timeout = EXPERIMENT_ROUND_BASE.plus(timeout.multipliedBy(Math.max(1, point.runs()) * 2L));
        }
        List<TaskReply> replies;
        try {
            replies = cluster.runOnAll(ZeroSidedPointHandler.TYPE, point.toJson(), timeout);
        } catch (FaroException e) {
            throw new FaroException(
                    e.category(),
                    point.series() + " with " + point.flows() + " flow(s): "
                            + e.getMessage().lines().findFirst().orElse(""));
        }
        return replies.stream().map(TaskReply::result).toList();
    }

    private static void add(Map<String, Map<Integer, List<Double>>> into, String series, int flows, double value) {
        into.computeIfAbsent(series, k -> new LinkedHashMap<>())
                .computeIfAbsent(flows, k -> new ArrayList<>())
                .add(value);
    }

    private Map<String, Object> parameters() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("flows", config.flows());
        parameters.put("drivers", config.drivers());
        parameters.put("itemBytes", config.itemBytes());
        parameters.put("capacity", config.capacity());
        parameters.put("maxBatchBytes", config.maxBatchBytes());
        parameters.put("warmupSeconds", config.warmupSeconds());
        parameters.put("seconds", config.seconds());
        parameters.put("runs", config.runs());
        parameters.put("baselineProvider", config.provider());
        parameters.put(
                "zeroSidedTransport",
                "simulated RC NICs and switch over "
                        + LinkKind.of(config.link()).description() + ", MTU 1024");
        parameters.put("pin", config.pin());
        parameters.put("endpointWork", config.endpointWork());
        parameters.put("experiments", config.experiments());
        parameters.put("paper", PAPER_FIG6);
        return parameters;
    }
}
