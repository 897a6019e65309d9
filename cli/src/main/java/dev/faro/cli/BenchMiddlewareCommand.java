package dev.faro.cli;

import dev.faro.bench.middleware.MiddlewareBenchmark;
import dev.faro.bench.middleware.MiddlewareBenchmarkConfig;
import dev.faro.bench.middleware.MiddlewareReport;
import dev.faro.cluster.coordinator.ClusterStart;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code faro bench middleware}: wiring only. Parses the options into a {@link MiddlewareBenchmarkConfig}, runs
 * {@link MiddlewareBenchmark} on local worker JVMs (or, with {@code --listen}, on workers that join) and prints its
 * tables. Bad values are parameter errors (exit 2, one line plus usage); a run-time failure prints one line and exits
 * 1.
 */
@Command(
        name = "middleware",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "DAIS16 (Goncalves, Pereira, Jimenez-Peris): the asynchronous multi-stage shuffle middleware. Each worker"
                    + " JVM is a process with --workers-per-process worker threads; all shuffle operators share one"
                    + " outgoing and one incoming ring per worker pair and one connection per process pair; rows move"
                    + " by one-sided WRITE into the mirrored remote ring, batched WRITTEN/READ notifications say what"
                    + " was written and freed, and one network thread per process handles completions.",
            "v1 = the paper's synthetic benchmark (Fig. 3): every process generates --rows integers, shuffles"
                    + " them, re-keys them so most rows move, and shuffles again; over Java NIO sockets (one"
                    + " non-blocking channel per pair of workers on different processes, the paper's baseline) and"
                    + " over the middleware on the fabric (--provider), at each --processes and --workers-per-process,"
                    + " in one run; with it V3 (WRITEs and notifications per MiB, blocks on a full ring) and V4"
                    + " (connections per process). v2 = the write-threshold sweep (Fig. 4) at 2 workers per process.",
            "Tables carry the paper's numbers in a 'paper' column. Writes middleware-v1.csv, middleware-v2.csv and"
                    + " their PNG plots under --out."
        })
final class BenchMiddlewareCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterOptions cluster;

    @Option(
            names = "--experiments",
            paramLabel = "E",
            split = ",",
            description =
                    "Which experiments: v1 (with V3 and V4 counts), v2, fig5 (TPC-C queries through the engine, NIO vs middleware; middleware-fig5.csv/png) (default: v1,v2).")
    private List<String> experiments;

    @Option(
            names = "--processes",
            paramLabel = "N",
            split = ",",
            description = "Process (worker JVM) counts (default: 4,8, the paper's; --quick: 4; with --listen:"
                    + " --workers).")
    private List<Integer> processes;

    @Option(
            names = "--workers-per-process",
            paramLabel = "N",
            split = ",",
            description = "Worker threads per process for v1 and fig5 (default: 1,2,4; --quick: 1,2).")
    private List<Integer> workers;

    @Option(
            names = "--rows",
            paramLabel = "N",
            description = "Integers each process generates (default: 5000000, the paper's; --quick: 200000).")
    private Long rows;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description = "Runs per point; the median time is kept (default: 3; --quick: 1).")
    private Integer runs;

    @Option(
            names = "--write-threshold",
            paramLabel = "BYTES",
            description = "V1's write threshold, of the middleware and of the NIO baseline alike (default: 16384,"
                    + " the paper's 16 KB; V2 sweeps its own).")
    private Integer writeThreshold;

    @Option(
            names = "--warehouses",
            paramLabel = "W",
            description = "fig5's TPC-C warehouses (default: 2; the paper: scale 15 at 4 and 30 at 8 instances;"
                    + " each local worker JVM gets 40 MiB of heap more per warehouse beyond 2).")
    private Integer warehouses;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).")
    private Path outputDirectory = MiddlewareBenchmarkConfig.DEFAULT_OUTPUT_DIRECTORY;

    @Option(names = "--quick", description = "4 processes, 1 and 2 workers, 200 k integers, one run: a smoke test.")
    private boolean quick;

    @Override
    public Integer call() throws InterruptedException {
        BenchRun run = new BenchRun(spec);
        MiddlewareBenchmarkConfig config = config();
        ClusterStart joined = run.joined(cluster, config.provider(), "--processes", config.maxProcesses());
        return run.run(out -> {
            MiddlewareReport report;
            try {
                report = new MiddlewareBenchmark(config, joined, run.progress()).run();
            } catch (IllegalArgumentException e) {
                // a refusal found at run time (fewer workers joined than --processes) fails the run
                throw new IllegalStateException(e.getMessage(), e);
            }
            out.print(report.text());
            BenchRun.printWrote(out, report.files());
        });
    }

    /** The options over the defaults; invalid values are usage errors. */
    MiddlewareBenchmarkConfig config() {
        try {
            MiddlewareBenchmarkConfig config =
                    quick ? MiddlewareBenchmarkConfig.quick() : MiddlewareBenchmarkConfig.defaults();
            String provider = cluster.listening() ? cluster.provider() : cluster.localProvider();
            List<Integer> processCounts = processes != null
                    ? processes
                    : cluster.listening() ? List.of(cluster.workers()) : config.processes();
            return config.with(
                            provider,
                            experiments != null ? experiments : config.experiments(),
                            processCounts,
                            workers != null ? workers : config.workers(),
                            rows != null ? rows : config.rowsPerProcess(),
                            runs != null ? runs : config.runs(),
                            outputDirectory)
                    .withWriteThreshold(writeThreshold != null ? writeThreshold : config.writeThreshold())
                    .withWarehouses(warehouses != null ? warehouses : config.warehouses());
        } catch (IllegalArgumentException e) {
            throw BenchRun.usageError(spec, e);
        }
    }
}
