package dev.faro.cli;

import dev.faro.bench.ByteSizes;
import dev.faro.bench.fabric.FabricBenchmark;
import dev.faro.bench.fabric.FabricBenchmarkConfig;
import dev.faro.bench.fabric.FabricBenchmarkReport;
import dev.faro.bench.fabric.FabricOperation;
import dev.faro.bench.fabric.ProviderComparison;
import dev.faro.fabric.FabricProvider;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.FaroException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code faro bench fabric}: wiring only. Parses the options into a {@link FabricBenchmarkConfig}, runs
 * {@link FabricBenchmark} and prints its table. Bad values are parameter errors (exit 2, one line plus usage); a
 * benchmark that fails at run time (a worker died) prints one line and exits 1.
 */
@Command(
        name = "fabric",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Measure fabric bandwidth (GB/s) and message rate for RC WRITE, RC READ, RC SEND and UD SEND between two"
                    + " worker processes, against single-thread memcpy measured in the same runs.",
            "Prints a table with the ratio to memcpy and writes fabric-<provider>.csv, .json (machine and parameters)"
                    + " and .png under --out."
        })
final class BenchFabricCommand implements Callable<Integer> {

    /** Exit code when the benchmark fails at run time (a worker died or an operation failed). */
    static final int FAILED = 1;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--provider",
            paramLabel = "NAME",
            split = ",",
            converter = ProviderConverter.class,
            description = "Fabric provider of both workers (default: shm). Several, comma-separated (shm,net,ucx),"
                    + " are measured one after the other in this run and compared; with ucx and an installed"
                    + " ucx_perftest, UCX's own put bandwidth is measured beside RC WRITE. UCX settings come from the"
                    + " environment (UCX_TLS=sm,self, ...).")
    private List<String> providers = List.of(FabricBenchmarkConfig.DEFAULT_PROVIDER);

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
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<FabricBenchmarkReport> reports = new java.util.ArrayList<>();
        for (String provider : providers.stream().distinct().toList()) {
            FabricBenchmarkConfig config = config().withProvider(provider);
            FabricBenchmarkReport report;
            try {
                report = new FabricBenchmark(config, line -> {
                            err.println(line);
                            err.flush();
                        })
                        .run();
            } catch (IllegalArgumentException e) {
                // known only once the workers report the provider's limits, e.g. every size above the UD MTU
                throw new ParameterException(spec.commandLine(), e.getMessage());
            } catch (FaroException | UncheckedIOException | IllegalStateException e) {
                UserStop.printFailure(err, "faro bench fabric: " + provider + ": " + e.getMessage());
                return FAILED;
            }
            out.println("provider " + provider + ":");
            out.print(report.table());
            out.println("wrote " + report.csvFile() + ", " + report.metadataFile() + " and " + report.plotFile());
            out.flush();
            reports.add(report);
        }
        if (reports.size() > 1 || providers.contains("ucx")) {
            out.print(ProviderComparison.table(providers.stream().distinct().toList(), reports, config(), err));
            out.flush();
        }
        return CommandLine.ExitCode.OK;
    }

    /** The options over the defaults ({@code --quick} defaults when given); invalid combinations are usage errors. */
    FabricBenchmarkConfig config() {
        FabricBenchmarkConfig base = quick ? FabricBenchmarkConfig.quick() : FabricBenchmarkConfig.defaults();
        try {
            FabricBenchmarkConfig config =
                    base.withProvider(providers.getFirst()).withOutputDirectory(outputDirectory);
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
            throw new ParameterException(spec.commandLine(), e.getMessage());
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

    /** A provider name, checked against the installed providers. */
    static final class ProviderConverter implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            List<String> known = Fabrics.providers().stream()
                    .map(FabricProvider::name)
                    .sorted()
                    .toList();
            if (!known.contains(value)) {
                throw new CommandLine.TypeConversionException(
                        "unknown provider '" + value + "'; known: " + String.join(", ", known));
            }
            return value;
        }
    }
}
