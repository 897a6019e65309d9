package dev.faro.bench.tpch;

import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.cluster.tpch.QueryOutcome;
import dev.faro.cluster.tpch.TpchSession;
import dev.faro.cluster.tpch.TpchSettings;
import dev.faro.engine.tpch.Placement;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.transport.ExchangeTransports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code faro bench tpch}, the analog of TODS19 §7.2 (E9–E11) on one machine: the same TPC-H queries on the same
 * local cluster with the exchanges over each chosen exchange transport (by default MESQ/SR, each RC design and the
 * plain TCP socket baseline; {@code --transports} names others), next to a single-process DuckDB on the same rows,
 * all in one invocation. Every (query, system) pair gets one untimed warm-up
 * run, then {@code runs} timed runs interleaved across systems; the report shows medians and ratios. Every run's row
 * count is compared with DuckDB's and a difference fails the benchmark, so a broken plan cannot pass as a fast one
 * (the values are checked against DuckDB by the engine's tests). Coordination code.
 */
public final class TpchBenchmark {

    /** The name of the single-process reference in the report. */
    static final String DUCKDB = "DuckDB";

    /** The one cluster system of a single-node run: the engine alone. */
    static final String FARO = "Faro";

    private final TpchBenchmarkConfig config;
    private final ClusterStart cluster;
    private final Consumer<String> progress;

    /** The benchmark on a local cluster of {@code config.nodes()} worker JVMs. */
    public TpchBenchmark(TpchBenchmarkConfig config, Consumer<String> progress) {
        this(config, localCluster(config, ClusterConfig.DEFAULT_PROVIDER), progress);
    }

    /**
     * A local cluster for {@code config}: its nodes as worker JVMs on {@code provider}, heaps sized for its data, each
     * recording a JFR profile ({@code worker-PID.jfr}) into the config's profile directory when it has one.
     */
    public static ClusterStart localCluster(TpchBenchmarkConfig config, String provider) {
        ClusterConfig cluster = ClusterConfig.local(config.nodes())
                .withProvider(provider)
                .withWorkerHeap(TpchSession.workerHeapMiB(config.nodes(), config.scaleFactor()) + "m");
        if (config.profileDirectory() != null) {
            cluster = cluster.withJvmOptions(profileOptions(config.profileDirectory()));
        }
        return ClusterStart.local(cluster);
    }

    /**
     * The JVM options of a worker recording a JFR profile (profile settings) into {@code directory}: the whole
     * recording as {@code worker-PID.jfr} when the worker exits, and its chunks as they fill under {@code
     * repository/} (what is left when a slow worker is stopped before it could write the whole recording).
     */
    static List<String> profileOptions(Path directory) {
        Path absolute = directory.toAbsolutePath();
        try {
            Files.createDirectories(absolute.resolve("repository"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the profile directory " + directory + ": " + e, e);
        }
        return List.of(
                "-XX:FlightRecorderOptions:repository=" + absolute.resolve("repository"),
                "-XX:StartFlightRecording=settings=profile,dumponexit=true,filename="
                        + absolute.resolve("worker-%p.jfr"));
    }

    /**
     * The JFR files the workers wrote under {@code directory}, once they have exited: each worker's whole recording,
     * or where that is empty (the worker was stopped before writing it) the chunks of its repository.
     */
    public static List<Path> profiles(Path directory) {
        try (Stream<Path> files = Files.walk(directory, 3)) {
            List<Path> all = files.filter(f -> f.getFileName().toString().endsWith(".jfr"))
                    .sorted()
                    .toList();
            List<Path> written = new ArrayList<>();
            for (Path file : all) {
                if (Files.size(file) == 0) {
                    continue; // a worker stopped before it wrote its whole recording: its chunks stand in
                }
                if (file.getParent().equals(directory)) {
                    written.add(file);
                    continue;
                }
                // a repository chunk, in a directory named ..._PID: kept when its worker's whole recording is empty
                String pid = file.getParent().getFileName().toString().replaceAll(".*_", "");
                Path whole = directory.resolve("worker-" + pid + ".jfr");
                if (!Files.exists(whole) || Files.size(whole) == 0) {
                    written.add(file);
                }
            }
            return written;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the profile directory " + directory + ": " + e, e);
        }
    }

    /**
     * The benchmark on the cluster {@code cluster} describes, e.g. workers joining from other hosts; its node count
     * must be {@code config.nodes()}.
     */
    public TpchBenchmark(TpchBenchmarkConfig config, ClusterStart cluster, Consumer<String> progress) {
        if (cluster.config().nodes() != config.nodes()) {
            throw new IllegalArgumentException("the cluster has "
                    + cluster.config().nodes() + " nodes, the benchmark" + " expects " + config.nodes());
        }
        this.config = config;
        this.cluster = cluster;
        this.progress = progress;
    }

    /** The one system of a single-node run, {@link #FARO}: the transports do not differ when no exchange leaves the process. */
    static Map<String, TpchSettings> singleNodeSystem(TpchSettings base) {
        Map<String, TpchSettings> systems = new LinkedHashMap<>();
        systems.put(FARO, base);
        return systems;
    }

    /**
     * The named transports as settings, in the given order, keyed by their names in the report: any name
     * {@link ExchangeTransports#resolve} takes (a design's paper or constant name in any case, "MESQ/SR" or "mesq_sr";
     * {@code tcp} for the TCP socket baseline; a transport another module registers), or {@code all} for every
     * transport on the class path.
     *
     * @throws IllegalArgumentException naming the known transports, for an unknown or repeated one
     */
    static Map<String, TpchSettings> transports(TpchSettings base, List<String> names) {
        Map<String, TpchSettings> systems = new LinkedHashMap<>();
        java.util.Set<String> named = new java.util.HashSet<>();
        for (String name : names) {
            if (name.strip().equalsIgnoreCase("all")) {
                for (String transport : ExchangeTransports.names()) {
                    systems.putIfAbsent(transport, base.withTransport(transport));
                }
                continue;
            }
            String key;
            try {
                key = ExchangeTransports.resolve(name);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage() + ", or all");
            }
            if (!named.add(key)) { // a name given twice; one that 'all' also covers is fine, in either order
                throw new IllegalArgumentException("transport " + key + " is named twice");
            }
            systems.putIfAbsent(key, base.withTransport(key));
        }
        if (systems.isEmpty()) {
            throw new IllegalArgumentException("no transports given");
        }
        return systems;
    }

    public TpchBenchmarkReport run() {
        Instant started = Instant.now();
        TpchSettings base =
                new TpchSettings(config.scaleFactor(), Placement.RANDOM, config.threads(), EndpointDesign.MESQ_SR);
        Map<String, TpchSettings> systems =
                config.singleNode() ? singleNodeSystem(base) : transports(base, config.transports());
        List<TpchBenchmarkReport.Measurement> measurements = new ArrayList<>();
        try (TpchSession session = TpchSession.start(cluster, base, progress)) {
            progress.accept("loading the same rows into DuckDB (single process, "
                    + Runtime.getRuntime().availableProcessors() + " threads)");
            try (DuckDbBaseline duckDb = DuckDbBaseline.load(
                    config.scaleFactor(),
                    config.threads(),
                    config.outputDirectory().resolve("tmp"))) {
                for (int run = 0; run <= config.runs(); run++) {
                    boolean warmUp = run == 0;
                    progress.accept(warmUp ? "warm-up run" : "run " + run + " of " + config.runs());
                    for (int query : config.queries()) {
                        DuckDbBaseline.Run reference = duckDb.run(query);
                        for (Map.Entry<String, TpchSettings> system : systems.entrySet()) {
                            QueryOutcome outcome = session.run(query, system.getValue());
                            if (outcome.rows().size() != reference.rows()) {
                                throw new IllegalStateException(String.format(
                                        "Q%d over %s returned %d rows," + " DuckDB %d: the answers differ",
                                        query, system.getKey(), outcome.rows().size(), reference.rows()));
                            }
                            if (!warmUp) {
                                measurements.add(new TpchBenchmarkReport.Measurement(
                                        query,
                                        system.getKey(),
                                        outcome.elapsedNanos(),
                                        outcome.rows().size(),
                                        outcome.bytesShuffled()));
                            }
                        }
                        if (!warmUp) {
                            measurements.add(new TpchBenchmarkReport.Measurement(
                                    query, DUCKDB, reference.nanos(), reference.rows(), 0));
                        }
                    }
                }
            }
        }
        return new TpchBenchmarkReport(
                config, List.copyOf(systems.keySet()), measurements, started, Duration.between(started, Instant.now()));
    }
}
