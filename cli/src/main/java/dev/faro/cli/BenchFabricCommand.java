package dev.faro.cli;

import dev.faro.bench.ByteSizes;
import dev.faro.bench.fabric.FabricBenchCluster;
import dev.faro.bench.fabric.FabricBenchmark;
import dev.faro.bench.fabric.FabricBenchmarkConfig;
import dev.faro.bench.fabric.FabricBenchmarkReport;
import dev.faro.bench.fabric.FabricOperation;
import dev.faro.bench.fabric.ProviderComparison;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.shm.ShmFabricProvider;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code faro bench fabric}: wiring only. Parses the options into a {@link FabricBenchmarkConfig}, runs
 * {@link FabricBenchmark} once per provider on two local worker JVMs, or with {@code --listen ADDR:PORT --workers 2}
 * ({@link ClusterOptions}) on two workers that join from elsewhere, and prints its table. Bad values are parameter
 * errors (exit 2, one line plus usage); a benchmark that fails at run time (a worker died) prints one line and exits 1.
 */
@Command(
        name = "fabric",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Measure fabric bandwidth (GB/s) and message rate for RC WRITE, RC READ, RC SEND and UD SEND between two"
                    + " worker processes, against single-thread memcpy measured in the same runs.",
            "Prints a table with the ratio to memcpy and writes fabric-<provider>.csv, .json (machine and parameters)"
                    + " and .png under --out.",
            "With --listen ADDR:PORT --workers 2 the initiator (node 0) and the target (node 1) are workers started"
                    + " elsewhere (faro worker --join ADDR:PORT), over net and/or ucx."
        })
final class BenchFabricCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    /** Where the workers come from, and the providers ({@code --provider}, several comma-separated). */
    @Mixin
    private ClusterOptions cluster;

    @Option(
            names = "--sizes",
            paramLabel = "SIZE",
            split = ",",
            converter = SizeConverter.class,
            description =
                    "Message sizes, with K/M suffixes (default: 64,256,1K,4K,16K,64K,256K,1M; --quick: 64,4K,64K)."
                            + " UD SEND is measured only up to the UD MTU.")
    private List<Integer> sizes;

    @Option(
            names = "--ops",
            paramLabel = "OP",
            split = ",",
            converter = OperationConverter.class,
            description = "Operations: write, read, rc-send, ud-send (default: all).")
    private List<FabricOperation> operations;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description = "Timed runs per point; the table shows the median (default: 5; --quick: 3).")
    private Integer runs;

    @Option(
            names = "--seconds-per-point",
            paramLabel = "SECONDS",
            description = "Duration of one timed run of one point; memcpy runs as long, interleaved (default: 0.3;"
                    + " --quick: 0.05).")
    private Double secondsPerPoint;

    @Option(
            names = "--window",
            paramLabel = "N",
            description = "Requests the initiator keeps outstanding; every quarter is signaled (default: 32).")
    private Integer window;

    @Option(
            names = "--working-set",
            paramLabel = "SIZE",
            converter = WorkingSetConverter.class,
            description = "Bytes each buffer cycles through, so copies reach memory (default: 64M).")
    private Long workingSetBytes;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).")
    private Path outputDirectory = FabricBenchmarkConfig.DEFAULT_OUTPUT_DIRECTORY;

    @Option(names = "--quick", description = "Few sizes and short runs: a smoke test that takes seconds.")
    private boolean quick;

    @Override
    public Integer call() {
        BenchRun run = new BenchRun(spec);
        PrintWriter out = spec.commandLine().getOut();
        Consumer<String> progress = run.progress();
        FabricBenchmarkConfig base = config();
        List<String> providers = providers();
        ClusterStart joined =
                run.options(() -> cluster.listening() ? cluster.joining(providers.getFirst(), progress) : null);
        List<FabricBenchmarkReport> reports = new ArrayList<>();
        FabricBenchCluster workers = null;
        String provider = providers.getFirst();
        try {
            if (joined != null) {
                workers = FabricBenchCluster.join(joined, progress);
            }
            for (String each : providers) {
                provider = each;
                FabricBenchmark benchmark = new FabricBenchmark(base.withProvider(provider), progress);
                FabricBenchmarkReport report = workers == null ? benchmark.run() : benchmark.run(workers);
                out.println("provider " + provider + ":");
                out.print(report.table());
                BenchRun.printWrote(out, List.of(report.csvFile(), report.metadataFile(), report.plotFile()));
                out.flush();
                reports.add(report);
            }
        } catch (IllegalArgumentException e) {
            // known only once the workers report the provider's limits, e.g. every size above the UD MTU
            throw BenchRun.usageError(spec, e);
        } catch (FaroException | UncheckedIOException | IllegalStateException e) {
            run.failed((workers == null && joined != null ? "" : provider + ": ") + e.getMessage());
            return BenchRun.FAILED;
        } finally {
            if (workers != null) {
                workers.close();
            }
        }
        if (reports.size() > 1 || providers.contains("ucx")) {
            out.print(ProviderComparison.table(providers, reports, base, run.err(), joined != null));
            out.flush();
        }
        return CommandLine.ExitCode.OK;
    }

    /**
     * The providers to measure, in order: {@code --provider}'s list (default shm; with {@code --listen} net). With
     * {@code --listen} exactly two workers join and shm, which needs one host, is refused; without it the join options
     * are. Refusals are usage errors.
     */
    List<String> providers() {
        try {
            List<String> providers = cluster.providers();
            if (!cluster.listening()) {
                cluster.requireLocal();
                return providers;
            }
            int count = cluster.workers();
            if (count != 2) {
                throw new IllegalArgumentException("--workers must be 2 for bench fabric (node 0 the initiator, node 1"
                        + " the target), not " + count);
            }
            if (providers.contains(ShmFabricProvider.NAME)) {
                throw new IllegalArgumentException("--provider shm works on one host only; with --listen bench fabric"
                        + " measures net and/or ucx between the workers that join");
            }
            return providers;
        } catch (IllegalArgumentException e) {
            throw BenchRun.usageError(spec, e);
        }
    }

    /** The options over the defaults ({@code --quick} defaults when given); invalid combinations are usage errors. */
    FabricBenchmarkConfig config() {
        FabricBenchmarkConfig base = quick ? FabricBenchmarkConfig.quick() : FabricBenchmarkConfig.defaults();
        try {
            FabricBenchmarkConfig config =
                    base.withProvider(providers().getFirst()).withOutputDirectory(outputDirectory);
            if (sizes != null) {
                config = config.withSizes(sizes);
            }
            if (operations != null) {
                config = config.withOperations(operations);
            }
            if (runs != null) {
                config = config.withRuns(runs);
            }
            if (secondsPerPoint != null) {
                if (!(secondsPerPoint > 0 && secondsPerPoint <= 3600)) {
                    throw new IllegalArgumentException("--seconds-per-point must be in (0, 3600]: " + secondsPerPoint);
                }
                config = config.withRunDuration(Duration.ofNanos(Math.round(secondsPerPoint * 1e9)));
            }
            if (window != null) {
                config = config.withWindow(window);
            }
            if (workingSetBytes != null) {
                config = config.withWorkingSetBytes(workingSetBytes);
            }
            return config;
        } catch (IllegalArgumentException e) {
            throw BenchRun.usageError(spec, e);
        }
    }

    /** A message size: a byte count with an optional K/M/G suffix, at most 2 GiB - 1. */
    static final class SizeConverter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            long bytes = parse(value);
            if (bytes > Integer.MAX_VALUE) {
                throw new CommandLine.TypeConversionException("'" + value + "' is larger than a message can be");
            }
            return (int) bytes;
        }
    }

    /** A working-set size: a byte count with an optional K/M/G suffix. */
    static final class WorkingSetConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return parse(value);
        }
    }

    private static long parse(String value) {
        try {
            return ByteSizes.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /** An operation's command-line name. */
    static final class OperationConverter implements CommandLine.ITypeConverter<FabricOperation> {
        @Override
        public FabricOperation convert(String value) {
            try {
                return FabricOperation.fromCliName(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
