package dev.faro.bench.fabric;

import dev.faro.bench.ByteSizes;
import dev.faro.bench.report.MachineInfo;
import dev.faro.bench.report.RunMetadata;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The coordinator of {@code faro bench fabric}: starts a local cluster of two worker JVMs, or uses two that joined
 * from elsewhere ({@link FabricBenchCluster}, each serving {@link FabricBenchHandler} tasks for its {@link
 * FabricBenchWorker}), one the initiator and one the target, passes their keys and queue-pair addresses between them, drives every point (operation times size) with
 * one cluster round per command, the timed loops running between the workers alone, and aggregates the runs into
 * {@link BandwidthResult}s, then writes the report through {@link FabricReport}. The protocol is drawn in this
 * package's documentation.
 *
 * <p>Coordination code; it runs on the caller's thread and leaves no worker running when it returns or throws.
 */
public final class FabricBenchmark {

    static final String INITIATOR = "initiator";
    static final String TARGET = "target";

    /** The longest untimed warm-up per point. */
    private static final Duration MAX_WARMUP = Duration.ofMillis(100);

    /** Slack on top of a MEASURE's own duration before the coordinator gives up on the initiator. */
    private static final Duration MEASURE_SLACK = Duration.ofSeconds(30);

    private final FabricBenchmarkConfig config;
    private final Consumer<String> progress;

    /** The running cluster, for tests that kill a worker; null before and after {@link #run()}. */
    private volatile FabricBenchCluster workers;

    /**
     * @param progress receives one line per point while the benchmark runs (the workers' standard error goes to this
     *     process's, through the cluster)
     */
    public FabricBenchmark(FabricBenchmarkConfig config, Consumer<String> progress) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.progress = Objects.requireNonNull(progress, "progress is null");
    }

    /**
     * Runs every point and writes the CSV, JSON and PNG files.
     *
     * @throws dev.faro.fabric.FaroException one line naming the worker and the command, if a worker cannot start,
     *     dies, fails or stops answering
     */
    public FabricBenchmarkReport run() {
        MachineInfo machine = MachineInfo.collect(); // before the workers load the machine
        try (FabricBenchCluster cluster = FabricBenchCluster.start()) {
            return run(cluster, machine);
        }
    }

    /**
     * Runs every point on {@code cluster}'s two workers (which joined from elsewhere; they stay for the caller to
     * close; their benchmark nodes are closed) and writes the CSV, JSON and PNG files. Memcpy runs on the initiator
     * (node 0), whose host a progress line names; the loopback socket stream runs only when both workers share a host, else it is skipped with a note.
     *
     * @throws dev.faro.fabric.FaroException one line naming the worker and the command, if a worker dies, fails or
     *     stops answering
     */
    public FabricBenchmarkReport run(FabricBenchCluster cluster) {
        try {
            return run(cluster, MachineInfo.collect());
        } finally {
            cluster.closeNodes(); // the next provider opens new ones
        }
    }

    private FabricBenchmarkReport run(FabricBenchCluster cluster, MachineInfo machine) {
        Instant startedAt = Instant.now();
        long startNs = System.nanoTime();
        List<BandwidthResult> results;
        List<SocketStreamResult> socketBaseline = new ArrayList<>();
        Map<String, Object> placement = new LinkedHashMap<>();
        try {
            workers = cluster;
            results = measureAll(new Worker(cluster, 0), new Worker(cluster, 1), socketBaseline, placement);
        } finally {
            workers = null;
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - startNs);
        Map<String, Object> parameters = parameters();
        parameters.putAll(placement);
        RunMetadata metadata = new RunMetadata("fabric", startedAt, elapsed, machine, parameters);
        return FabricReport.write(config, results, socketBaseline, metadata);
    }

    /** The workers' process ids by node while {@link #run()} runs, else empty (for failure tests). */
    List<Long> workerPids() {
        FabricBenchCluster cluster = workers;
        return cluster == null ? List.of() : cluster.workerPids();
    }

    /** One node of the cluster, by its role. */
    private record Worker(FabricBenchCluster cluster, int node) {
        String name() {
            return FabricBenchHandler.role(node);
        }

        String request(String command) {
            return cluster.request(node, command);
        }

        String request(String command, Duration timeout) {
            return cluster.request(node, command, timeout);
        }
    }

    private List<BandwidthResult> measureAll(
            Worker initiator, Worker target, List<SocketStreamResult> socketBaseline, Map<String, Object> placement) {
        boolean socketStream = true;
        if (initiator.cluster().joined()) {
            String[] initiatorHost = words(initiator.request(FabricBenchWorker.HOST), 2, initiator);
            String[] targetHost = words(target.request(FabricBenchWorker.HOST), 2, target);
            socketStream = initiatorHost[0].equals(targetHost[0]);
            String where = "node 0 (" + INITIATOR + ", pid " + initiatorHost[1] + " on " + initiatorHost[0]
                    + "), node 1 (" + TARGET + ", pid " + targetHost[1] + " on " + targetHost[0] + ")";
            progress.accept("workers that joined: " + where + "; memcpy is measured on the initiator's host "
                    + initiatorHost[0]);
            placement.put("workers", "2 workers that joined (--listen): " + where);
            placement.put("memcpyHost", initiatorHost[0]);
            if (socketStream) {
                progress.accept("socket stream baseline: over loopback on " + initiatorHost[0] + ", the host of both");
                placement.put("socketStreamHost", initiatorHost[0]);
            } else {
                String note = "skipped: it streams over loopback, and the workers are on different hosts";
                progress.accept("note: socket stream baseline " + note);
                placement.put("socketBaseline", note);
            }
        }
        // A fresh shared secret per run for providers that authenticate peers (net); others ignore the option.
        String open = String.join(
                " ",
                FabricBenchWorker.OPEN,
                config.provider(),
                Long.toString(config.workingSetBytes()),
                Integer.toString(config.window()),
                "net.secret=" + HexFormat.of().formatHex(randomBytes(16))
                        + initiator.cluster().placementOptions(config.provider()));
        String[] initiatorNode = words(initiator.request(open), 4, initiator);
        String[] targetNode = words(target.request(open), 4, target);
        initiator.request(FabricBenchWorker.PEER + " " + targetNode[0] + " " + targetNode[1]);
        target.request(FabricBenchWorker.PEER + " " + initiatorNode[0] + " " + initiatorNode[1]);
        int udMtuBytes = Integer.parseInt(initiatorNode[2]);
        long maxMessageBytes = Long.parseLong(initiatorNode[3]);

        List<Point> points = plan(udMtuBytes, maxMessageBytes);
        List<BandwidthResult> results = new ArrayList<>(points.size());
        for (int i = 0; i < points.size(); i++) {
            Point point = points.get(i);
            BandwidthResult result = measurePoint(initiator, target, point);
            results.add(result);
            progress.accept(String.format(
                    "[%d/%d] %-8s %8s  %7.2f GB/s  %7.3f M msg/s  memcpy %6.2f GB/s  %5.2f",
                    i + 1,
                    points.size(),
                    point.operation().label(),
                    ByteSizes.format(point.sizeBytes()),
                    result.gigabytesPerSecond(),
                    result.megaMessagesPerSecond(),
                    result.memcpyGigabytesPerSecond(),
                    result.ratioToMemcpy()));
            if (socketStream && SocketStreamResult.measuredBeside(point.operation(), point.sizeBytes())) {
                socketBaseline.add(measureSocket(initiator, target, point));
            }
        }
        return results;
    }

    /** One operation at one size. */
    record Point(FabricOperation operation, int sizeBytes) {}

    /** Operation-major order; sizes the provider cannot carry (UD above its MTU) are left out, and said so. */
    List<Point> plan(int udMtuBytes, long maxMessageBytes) {
        List<Point> points = new ArrayList<>();
        for (FabricOperation operation : config.operations()) {
            long limit = operation.isUd() ? udMtuBytes : maxMessageBytes;
            List<String> skipped = new ArrayList<>();
            for (int size : config.sizesBytes()) {
                if (size <= limit) {
                    points.add(new Point(operation, size));
                } else {
                    skipped.add(ByteSizes.formatCompact(size));
                }
            }
            if (!skipped.isEmpty()) {
                progress.accept(operation.label() + ": skipping " + String.join(", ", skipped) + " (above the "
                        + (operation.isUd() ? "UD MTU" : "largest message") + " of "
                        + ByteSizes.format(limit) + " on " + config.provider() + ")");
            }
        }
        if (points.isEmpty()) {
            throw new IllegalArgumentException("nothing to measure: every requested size is above what "
                    + config.provider() + " carries for the requested operations");
        }
        return points;
    }

    private BandwidthResult measurePoint(Worker initiator, Worker target, Point point) {
        String prepare = FabricBenchWorker.PREPARE + " " + point.operation().cliName() + " " + point.sizeBytes();
        String[] initiatorQueuePairs = words(initiator.request(prepare), 2, initiator);
        String[] targetQueuePairs = words(target.request(prepare), 2, target);
        initiator.request(FabricBenchWorker.CONNECT + " " + targetQueuePairs[0] + " " + targetQueuePairs[1]);
        target.request(FabricBenchWorker.CONNECT + " " + initiatorQueuePairs[0] + " " + initiatorQueuePairs[1]);
        boolean twoSided = point.operation().isTwoSided();
        if (twoSided) {
            target.request(FabricBenchWorker.SERVE);
        }

        Duration run = config.runDuration();
        Duration warmup = run.compareTo(MAX_WARMUP) < 0 ? run : MAX_WARMUP;
        Duration measureTimeout =
                run.plus(warmup).multipliedBy(2L * (config.runs() + 1)).plus(MEASURE_SLACK);
        String measured = initiator.request(
                String.join(
                        " ",
                        FabricBenchWorker.MEASURE,
                        Integer.toString(config.runs()),
                        Long.toString(run.toNanos()),
                        Long.toString(warmup.toNanos())),
                measureTimeout);
        String[] fields = words(measured, config.runs() + 1, initiator);
        long receiverNotReadyRetries = Long.parseLong(fields[0]);
        List<RunSample> samples = new ArrayList<>(config.runs());
        for (int i = 1; i < fields.length; i++) {
            samples.add(RunSample.decode(fields[i]));
        }

        long received = 0;
        long creditWrites = 0;
        long udDrops = 0;
        if (twoSided) {
            String[] statistics = words(target.request(FabricBenchWorker.STOP), 3, target);
            received = Long.parseLong(statistics[0]);
            creditWrites = Long.parseLong(statistics[1]);
            udDrops = Long.parseLong(statistics[2]);
        }
        initiator.request(FabricBenchWorker.FINISH);
        target.request(FabricBenchWorker.FINISH);
        return BandwidthResult.of(
                point.operation(),
                point.sizeBytes(),
                samples,
                creditWrites,
                received,
                udDrops,
                receiverNotReadyRetries);
    }

    /**
     * The plain blocking-socket stream over loopback between the same two workers, at the point's size, right after
     * the point: the baseline of the {@code net} provider's RC bandwidth (see {@link SocketStreamBaseline}).
     */
    private SocketStreamResult measureSocket(Worker initiator, Worker target, Point point) {
        int size = point.sizeBytes();
        Duration run = config.runDuration();
        Duration warmup = run.compareTo(MAX_WARMUP) < 0 ? run : MAX_WARMUP;
        Duration measureTimeout =
                run.plus(warmup).multipliedBy(2L * (config.runs() + 1)).plus(MEASURE_SLACK);
        String port = target.request(FabricBenchWorker.SOCKET_SERVE + " " + size);
        String measured = initiator.request(
                String.join(
                        " ",
                        FabricBenchWorker.SOCKET_MEASURE,
                        port,
                        Integer.toString(size),
                        Integer.toString(config.runs()),
                        Long.toString(run.toNanos()),
                        Long.toString(warmup.toNanos())),
                measureTimeout);
        target.request(FabricBenchWorker.SOCKET_STOP);
        List<Measurement> runs = new ArrayList<>();
        for (String sample : words(measured, config.runs(), initiator)) {
            runs.add(Measurement.decode(sample));
        }
        SocketStreamResult result = SocketStreamResult.of(point.operation(), size, runs);
        progress.accept(String.format(
                "      %-8s %8s  %7.2f GB/s  socket stream beside it (blocking"
                        + " SocketChannel, loopback, same working set)",
                "", ByteSizes.format(size), result.gigabytesPerSecond()));
        return result;
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }

    private static String[] words(String reply, int expected, Worker worker) {
        String[] words = reply.isEmpty() ? new String[0] : reply.split(" ");
        if (words.length != expected) {
            throw new IllegalStateException("worker '" + worker.name() + "' replied with " + words.length
                    + " words where " + expected + " were expected: '" + reply + "'");
        }
        return words;
    }

    private Map<String, Object> parameters() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("provider", config.provider());
        parameters.put(
                "operations",
                config.operations().stream().map(FabricOperation::cliName).toList());
        parameters.put("sizesBytes", config.sizesBytes());
        parameters.put("runs", config.runs());
        parameters.put("secondsPerRun", config.runDuration().toNanos() / 1e9);
        parameters.put("window", Initiator.effectiveWindow(config.window()));
        parameters.put("signalInterval", Initiator.signalInterval(config.window()));
        parameters.put("receiveDepth", FabricBenchWorker.receiveDepth(config.window()));
        parameters.put("workingSetBytes", config.workingSetBytes());
        parameters.put(
                "workers",
                "2 cluster worker JVMs (node 0 " + INITIATOR + ", node 1 " + TARGET + "), -Xmx"
                        + FabricBenchCluster.WORKER_MAX_HEAP + " "
                        + String.join(" ", FabricBenchCluster.WORKER_JVM_OPTIONS));
        parameters.put("statistic", "median of runs; memcpy runs interleaved with the operation's runs");
        parameters.put(
                "completionWait",
                SpinThenYield.awaitsCompletions(config.provider())
                        ? "spin " + SpinThenYield.SPINS + " polls, then CompletionQueue.await (event mode), "
                                + SpinThenYield.AWAIT_MILLIS + " ms at a time"
                        : "busy poll: spin " + SpinThenYield.SPINS + " polls, then yield on every empty poll");
        parameters.put(
                "socketBaseline",
                "blocking SocketChannel stream over loopback between the two workers,"
                        + " from and into the same working-set memory as the fabric (native, one kernel copy each way),"
                        + " writes of "
                        + SocketStreamResult.SIZES.stream()
                                .map(ByteSizes::format)
                                .toList()
                        + ", measured right after each RC point of that size");
        return parameters;
    }
}
