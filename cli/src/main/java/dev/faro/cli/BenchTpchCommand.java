package dev.faro.cli;

import dev.faro.bench.tpch.TpchBenchmark;
import dev.faro.bench.tpch.TpchBenchmarkConfig;
import dev.faro.bench.tpch.TpchBenchmarkReport;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.fabric.ucx.UcxFabricProvider;
import dev.faro.shuffle.transport.ExchangeTransports;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code faro bench tpch}: TPC-H response times with the exchanges over MESQ/SR, every RC design and the TCP socket
 * baseline on one cluster (local, or workers joining from other hosts: {@link ClusterOptions}), next to a
 * single-process DuckDB on the same rows. Wiring only.
 */
@Command(
        name = "tpch",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "TPC-H response time (TODS19 §7.2, E9-E11 on one machine): the same queries on one local cluster with"
                    + " the exchanges over each exchange transport named by --transports (default: MESQ/SR, each of"
                    + " the six RC designs and plain TCP sockets), next to a single-process DuckDB loaded with the"
                    + " same rows, all in one invocation.",
            "Every (query, system) pair gets a warm-up run, then --runs timed runs interleaved across systems; the"
                    + " table shows medians, their totals and ratios. Writes tpch.csv, tpch.json and tpch.png under"
                    + " --out.",
            "With --listen ADDR:PORT --workers N the cluster is N workers started on other hosts (faro worker --join"
                    + " ADDR:PORT) over the net fabric; DuckDB still runs in this process.",
            "--nodes 1 measures the engine alone (one worker JVM, no exchange leaves it): Faro against DuckDB per"
                    + " query and in total. --profile records a JFR profile of every worker (open it with JDK"
                    + " Mission Control, or 'jfr view hot-methods FILE')."
        })
final class BenchTpchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--nodes",
            paramLabel = "N",
            description = "Worker JVMs started on this host (default: 2; 1: the engine alone against DuckDB).")
    private Integer nodes;

    @Mixin
    private ClusterOptions cluster;

    @Option(names = "--sf", paramLabel = "S", description = "TPC-H scale factor (default: 1; --quick: 0.01).")
    private Double scaleFactor;

    @Option(
            names = "--queries",
            paramLabel = "Q",
            split = ",",
            description = "Query numbers or 'all' (default:" + " 3,4,10, the paper's).")
    private List<String> queries;

    @Option(names = "--threads", paramLabel = "N", description = "Engine threads per node, at most 32 (default: 2).")
    private Integer threads;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description = "Timed runs per query and system (default: 3;" + " --quick: 1).")
    private Integer runs;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results).")
    private Path outputDirectory = TpchBenchmarkConfig.DEFAULT_OUTPUT_DIRECTORY;

    @Option(
            names = "--profile",
            description = "Record a JFR profile (settings=profile) of every local worker, the data generation"
                    + " included, into DIR/profile/worker-PID.jfr (DIR: --out; a worker stopped before it wrote it"
                    + " leaves the recording's chunks under DIR/profile/repository); the files are printed at the end.")
    private boolean profile;

    @Option(names = "--quick", description = "SF 0.01 and one run: a smoke test that takes a minute.")
    private boolean quick;

    @Option(
            names = "--transports",
            paramLabel = "T",
            split = ",",
            description = "Exchange transports to compare, in report order: shuffle designs (MESQ/SR, SESQ/SR,"
                    + " SEMQ/SR, MEMQ/SR, SEMQ/RD, MEMQ/RD, SEMQ/WR, MEMQ/WR), tcp (the TCP socket baseline), the"
                    + " transports other modules register (an unknown name lists them), or all of them"
                    + " (default: MESQ/SR, the six RC designs and tcp).")
    private List<String> transports;

    @Override
    public Integer call() throws InterruptedException {
        BenchRun run = new BenchRun(spec);
        TpchBenchmarkConfig config = config();
        ClusterStart start = run.options(() -> cluster.listening()
                ? cluster.joining(run.progress())
                : TpchBenchmark.localCluster(config, cluster.localProvider()));
        return run.run(out -> {
            TpchBenchmarkReport report = new TpchBenchmark(config, start, run.progress()).run();
            out.print(report.table());
            BenchRun.printWrote(out, report.write());
            if (config.profileDirectory() != null) {
                List<Path> profiles = TpchBenchmark.profiles(config.profileDirectory());
                out.println(
                        profiles.isEmpty()
                                ? "no JFR profile was written under " + config.profileDirectory()
                                : "JFR profiles: "
                                        + String.join(
                                                ", ",
                                                profiles.stream()
                                                        .map(Path::toString)
                                                        .toList()));
            }
        });
    }

    TpchBenchmarkConfig config() {
        TpchBenchmarkConfig config = quick ? TpchBenchmarkConfig.quick() : TpchBenchmarkConfig.defaults();
        try {
            config = config.withOutputDirectory(outputDirectory);
            if (transports != null) {
                config = config.withTransports(transports);
            }
            if (cluster.provider().equals(UcxFabricProvider.NAME)) {
                for (String transport : config.transports()) {
                    if (transport.equalsIgnoreCase("all")
                            || TpchOptions.needsDatagrams(ExchangeTransports.resolve(transport))) {
                        throw new IllegalArgumentException("transport " + transport + " needs UD queue pairs, and"
                                + " the ucx fabric has none: name RC designs or tcp with --transports, or use"
                                + " --provider net");
                    }
                }
            }
            if (cluster.listening()) {
                TpchOptions.refuseWithListen("--nodes", nodes, "--workers");
                TpchOptions.refuseWithListen(
                        "--profile",
                        profile ? Boolean.TRUE : null,
                        "FARO_JAVA_OPTS=-XX:StartFlightRecording=filename=worker.jfr on each worker host");
                config = config.withNodes(cluster.workers());
            }
            if (nodes != null) {
                config = config.withNodes(nodes);
            }
            if (transports != null && config.singleNode()) {
                throw new IllegalArgumentException("--transports compares exchanges between nodes, and with --nodes 1"
                        + " no exchange leaves the worker: leave it out, or use --nodes 2 or more");
            }
            if (scaleFactor != null) {
                config = config.withScaleFactor(TpchOptions.scaleFactor(scaleFactor));
            }
            if (queries != null) {
                config = config.withQueries(TpchOptions.queries(queries));
            }
            if (threads != null) {
                config = config.withThreads(TpchOptions.threads(threads));
            }
            if (runs != null) {
                config = config.withRuns(runs);
            }
            if (profile) {
                config = config.withProfileDirectory(outputDirectory.resolve("profile"));
            }
            if (!cluster.listening()) { // workers started elsewhere bring their own memory
                TpchOptions.checkFits(
                        config.nodes(),
                        config.scaleFactor(),
                        dev.faro.cluster.tpch.TpchSession.workerHeapMiB(config.nodes(), config.scaleFactor()));
            }
            // this JVM generates the whole database once for DuckDB (about 1.2 GB of heap per unit of scale factor)
            long neededMiB = (long) Math.ceil(1536 * config.scaleFactor());
            long maxMiB = Runtime.getRuntime().maxMemory() >> 20;
            if (neededMiB > maxMiB) {
                throw new IllegalArgumentException(String.format(
                        "SF %s needs about %d MiB of heap in this process"
                                + " for DuckDB's copy of the data, it has %d MiB: set FARO_JAVA_OPTS=-Xmx%dg",
                        config.scaleFactor(), neededMiB, maxMiB, (neededMiB >> 10) + 2));
            }
            return config;
        } catch (IllegalArgumentException e) {
            throw BenchRun.usageError(spec, e);
        }
    }
}
