package dev.faro.bench.shuffle;

import dev.faro.bench.report.MachineInfo;
import dev.faro.bench.report.RunMetadata;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.fabric.FaroException;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
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
 * The driver of {@code faro bench shuffle throughput} (TODS19 §7.1.4, Fig. 19a/c on one host): repartition of
 * 16-byte tuples over {@code shm} with every requested design at every requested node count, in one invocation and
 * one cluster of worker processes, reporting receive throughput per node (bytes received per node / response time).
 * The workers may also be ones that join from elsewhere ({@code --listen}, over {@code net} or {@code ucx}).
 *
 * <p>Runs are interleaved: each round runs every design once at every node count (alternating the design order), so
 * that noise on a shared machine hits all designs alike; the report gives the median of the timed rounds. Every run
 * is also checked for exactly-once delivery; a design that fails is reported as failed and not run again.
 *
 * <p>Coordination code; runs on the caller's thread and leaves no worker running when it returns or throws.
 */
public final class ShuffleThroughput {

    private final ShuffleThroughputConfig config;
    /** The joining workers, or null for a local cluster. */
    private final ClusterStart joined;

    private final Consumer<String> progress;

    /** @param progress receives one line per run and the workers' own output lines */
    public ShuffleThroughput(ShuffleThroughputConfig config, Consumer<String> progress) {
        this(config, null, progress);
    }

    /**
     * The benchmark on the workers {@code joined} describes (started elsewhere, {@code faro worker --join}); none of
     * its node counts may exceed their number.
     *
     * @param joined workers that join, or null for a local cluster of {@code config.workers()} JVMs
     * @param progress receives one line per run and the workers' own output lines
     */
    public ShuffleThroughput(ShuffleThroughputConfig config, ClusterStart joined, Consumer<String> progress) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.progress = Objects.requireNonNull(progress, "progress is null");
        if (joined != null && config.workers() > joined.config().nodes()) {
            throw new IllegalArgumentException("a run of " + config.workers() + " nodes needs that many workers; "
                    + joined.config().nodes() + " join");
        }
        this.joined = joined;
    }

    /**
     * Runs every design at every node count and writes the CSV, JSON and PNG files.
     *
     * @throws dev.faro.cluster.ClusterException if the workers cannot be started
     */
    public ShuffleThroughputReport run() throws InterruptedException {
        Instant startedAt = Instant.now();
        long startNanos = System.nanoTime();
        MachineInfo machine = MachineInfo.collect(); // before the workers load the machine
        List<String> notes = new ArrayList<>();
        int cores = Runtime.getRuntime().availableProcessors();
        if (joined == null && config.busyThreads() > cores) { // joined workers bring their own cores
            notes.add(String.format(
                    Locale.ROOT,
                    "%d nodes x %d threads x (SHUFFLE + RECEIVE) = %d busy threads on %d"
                            + " cores: the machine is oversubscribed, as expected here; the numbers show how the designs"
                            + " share CPUs, not network peak",
                    config.workers(),
                    config.threads(),
                    config.busyThreads(),
                    cores));
            progress.accept("note: " + notes.get(notes.size() - 1));
        }
        Map<String, List<CaseOutcome>> timed = new LinkedHashMap<>();
        Map<String, String> failures = new LinkedHashMap<>();
        ShuffleRunner cluster = joined != null
                ? ShuffleRunner.start(joined, progress)
                : ShuffleRunner.start(config.workers(), progress);
        String provider = cluster.provider();
        try {
            runRounds(cluster, timed, failures);
        } finally {
            try {
                cluster.close();
            } catch (FaroException e) {
                notes.add(e.getMessage());
                progress.accept("warning: " + e.getMessage());
            }
        }
        List<ThroughputResult> results = new ArrayList<>();
        for (int nodes : config.nodeCounts()) {
            for (EndpointDesign design : config.designs()) {
                String key = key(design, nodes);
                results.add(
                        failures.containsKey(key)
                                ? ThroughputResult.failed(design, nodes, failures.get(key))
                                : ThroughputResult.of(design, nodes, timed.get(key)));
            }
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
        RunMetadata metadata =
                new RunMetadata("shuffle-throughput", startedAt, elapsed, machine, parameters(provider, notes));
        return ThroughputReportWriter.write(config, results, metadata, notes);
    }

    private void runRounds(ShuffleRunner cluster, Map<String, List<CaseOutcome>> timed, Map<String, String> failures)
            throws InterruptedException {
        int rounds = config.warmupRuns() + config.runs();
        int total = rounds * config.nodeCounts().size() * config.designs().size();
        int done = 0;
        for (int round = 0; round < rounds; round++) {
            boolean warmup = round < config.warmupRuns();
            List<EndpointDesign> order = new ArrayList<>(config.designs());
            if (round % 2 == 1) {
                order = order.reversed();
            }
            for (int nodes : config.nodeCounts()) {
                for (EndpointDesign design : order) {
                    done++;
                    String key = key(design, nodes);
                    String label = String.format(
                            Locale.ROOT,
                            "[%d/%d] %-7s %d nodes %s",
                            done,
                            total,
                            design.paperName(),
                            nodes,
                            warmup ? "warm-up" : "run " + (round - config.warmupRuns() + 1));
                    if (failures.containsKey(key)) {
                        progress.accept(label + ": skipped (failed before)");
                        continue;
                    }
                    CaseOutcome outcome = cluster.run(config.shuffleCase(design, nodes));
                    List<String> problems = outcome.problems();
                    if (!problems.isEmpty()) {
                        failures.put(key, String.join("; ", problems));
                        progress.accept(label + ": FAILED: " + problems.get(0));
                        continue;
                    }
                    if (!warmup) {
                        timed.computeIfAbsent(key, k -> new ArrayList<>()).add(outcome);
                    }
                    double gigabytes = outcome.receiveBytesPerNodePerSecond() / 1e9;
                    progress.accept(String.format(
                            Locale.ROOT,
                            "%s: %6.3f GB/s per node  %7.2f M tuples/s  %.2f s",
                            label,
                            gigabytes,
                            gigabytes * 1e3 / ShuffleTuples.TUPLE_BYTES,
                            outcome.responseNanos() / 1e9));
                }
            }
        }
    }

    private static String key(EndpointDesign design, int nodes) {
        return design.name() + "@" + nodes;
    }

    private Map<String, Object> parameters(String provider, List<String> notes) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("provider", provider);
        parameters.put("pattern", "repartition (hash of the key mod nodes)");
        parameters.put("nodeCounts", config.nodeCounts());
        parameters.put(
                "designs",
                config.designs().stream().map(EndpointDesign::paperName).toList());
        parameters.put("threadsPerNode", config.threads());
        parameters.put("tupleBytes", ShuffleTuples.TUPLE_BYTES);
        parameters.put("tuplesPerThread", config.tuplesPerThread());
        parameters.put("scans", config.scans());
        parameters.put("runs", config.runs());
        parameters.put("warmupRuns", config.warmupRuns());
        parameters.put("rcBufferBytes", EndpointConfig.DEFAULT_RC_BUFFER_BYTES);
        parameters.put("udBufferBytes", EndpointConfig.DEFAULT_UD_BUFFER_BYTES);
        parameters.put("buffersPerPeer", EndpointConfig.DEFAULT_BUFFERS_PER_PEER);
        parameters.put("creditWriteBackFrequency", EndpointConfig.DEFAULT_CREDIT_WRITE_BACK_FREQUENCY);
        parameters.put(
                "workers",
                joined != null
                        ? joined.config().nodes() + " joined workers (--listen)"
                        : config.workers() + " JVMs, -Xmx" + ShuffleRunner.WORKER_MAX_HEAP + " "
                                + String.join(" ", ShuffleRunner.WORKER_JVM_OPTIONS));
        parameters.put(
                "metric",
                "receive throughput per node = bytes received per node / response time (the"
                        + " longest node's time from the end of the open to its end of stream); median of runs");
        parameters.put("notes", notes);
        return parameters;
    }
}
