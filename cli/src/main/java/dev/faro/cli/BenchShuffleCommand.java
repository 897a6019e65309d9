package dev.faro.cli;

import dev.faro.bench.ByteSizes;
import dev.faro.bench.shuffle.ShuffleThroughput;
import dev.faro.bench.shuffle.ShuffleThroughputConfig;
import dev.faro.bench.shuffle.ShuffleThroughputReport;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code faro bench shuffle}: the group of shuffle experiments, one subcommand each. Running it without a
 * subcommand is a usage error. Wiring only.
 */
@Command(
        name = "shuffle",
        mixinStandardHelpOptions = true,
        description = "Shuffle experiments of TODS19 with worker processes over the shm fabric, or on workers"
                + " started on other hosts (--listen ADDR:PORT --workers N).",
        subcommands = {
            BenchShuffleCommand.Throughput.class,
            BenchShuffleExperimentCommands.E1.class,
            BenchShuffleExperimentCommands.E2.class,
            BenchShuffleExperimentCommands.E3.class,
            BenchShuffleExperimentCommands.E4.class,
            BenchShuffleExperimentCommands.E5.class,
            BenchShuffleExperimentCommands.E6.class,
            BenchShuffleExperimentCommands.E7.class,
            BenchShuffleExperimentCommands.E8.class
        })
final class BenchShuffleCommand {

    /**
     * {@code faro bench shuffle throughput}: parses the options into a {@link ShuffleThroughputConfig}, runs
     * {@link ShuffleThroughput} and prints its table. Bad values are parameter errors (exit 2, one line plus usage).
     */
    @Command(
            name = "throughput",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "Repartition throughput per node (TODS19 Fig. 19: bytes received per node / response time) of every"
                        + " endpoint design at several node counts, 16-byte tuples, one worker process per node,"
                        + " all in one invocation.",
                "Runs are interleaved across designs; the table shows the median and the ratio to the best design."
                        + " Writes shuffle-throughput.csv, .json (machine and parameters) and .png under --out.",
                "With --listen ADDR:PORT --workers N the nodes are N workers started elsewhere (faro worker --join"
                        + " ADDR:PORT) over net or ucx (ucx: RC designs only); node counts up to N."
            })
    static final class Throughput implements Callable<Integer> {

        @Spec
        private CommandSpec spec;

        @Option(
                names = "--nodes",
                paramLabel = "N",
                split = ",",
                description = "Node counts (worker processes) to measure (default: 2,4; with --listen: those"
                        + " below --workers, and --workers).")
        private List<Integer> nodeCounts;

        @Mixin
        private ClusterOptions cluster;

        @Option(
                names = "--designs",
                paramLabel = "DESIGN",
                split = ",",
                description = "Designs by paper name (MESQ/SR, memq-wr, ...) or 'all' (default: all implemented).")
        private List<String> designs;

        @Option(
                names = "--threads",
                paramLabel = "N",
                description = "SHUFFLE and RECEIVE threads per node (default: 2).")
        private Integer threads;

        @Option(
                names = "--tuples",
                paramLabel = "ROWS",
                converter = RowsConverter.class,
                description = "Rows of each sending thread's table, with K/M suffixes (default: 1M; --quick: 32K).")
        private Integer tuples;

        @Option(
                names = "--scans",
                paramLabel = "N",
                description = "Times each thread sends its table per run (default: 4; --quick: 1).")
        private Integer scans;

        @Option(
                names = "--runs",
                paramLabel = "N",
                description = "Timed runs per design and node count; the table shows the median (default: 3;"
                        + " --quick: 1).")
        private Integer runs;

        @Option(
                names = "--warmup-runs",
                paramLabel = "N",
                description = "Untimed runs per design and node count first (default: 1; --quick: 0).")
        private Integer warmupRuns;

        @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).")
        private Path outputDirectory = ShuffleThroughputConfig.DEFAULT_OUTPUT_DIRECTORY;

        @Option(names = "--quick", description = "Small tables and one run: a smoke test that takes seconds.")
        private boolean quick;

        @Override
        public Integer call() throws InterruptedException {
            ShuffleThroughputConfig config = config();
            BenchRun run = new BenchRun(spec);
            ClusterStart joined = run.options(() -> ShuffleWorkers.joined(cluster, run.progress()));
            if (ShuffleWorkers.rcOnly(cluster) && allDesigns()) {
                run.progress().accept("note: the ucx fabric has RC queue pairs only: SESQ/SR and MESQ/SR are left out");
            }
            return run.run(out -> {
                ShuffleThroughputReport report = new ShuffleThroughput(config, joined, run.progress()).run();
                out.print(report.table());
                BenchRun.printWrote(out, List.of(report.csvFile(), report.metadataFile(), report.plotFile()));
            });
        }

        /** Whether the designs are every implemented one (no --designs, or 'all' among them). */
        private boolean allDesigns() {
            return designs == null
                    || designs.stream().anyMatch(name -> name.strip().equalsIgnoreCase("all"));
        }

        /** The options over the defaults ({@code --quick} defaults when given); invalid values are usage errors. */
        ShuffleThroughputConfig config() {
            ShuffleThroughputConfig base = quick ? ShuffleThroughputConfig.quick() : ShuffleThroughputConfig.defaults();
            try {
                ShuffleThroughputConfig config = base.withOutputDirectory(outputDirectory)
                        .withNodeCounts(ShuffleWorkers.nodeCounts(cluster, nodeCounts, base.nodeCounts()));
                if (designs != null) {
                    config = config.withDesigns(designs(designs));
                }
                if (ShuffleWorkers.rcOnly(cluster)) {
                    config = config.withDesigns(rcDesigns(config.designs(), !allDesigns()));
                }
                if (threads != null) {
                    config = config.withThreads(threads);
                }
                if (tuples != null) {
                    config = config.withTuplesPerThread(tuples);
                }
                if (scans != null) {
                    config = config.withScans(scans);
                }
                if (runs != null) {
                    config = config.withRuns(runs);
                }
                if (warmupRuns != null) {
                    config = config.withWarmupRuns(warmupRuns);
                }
                return config;
            } catch (IllegalArgumentException e) {
                throw BenchRun.usageError(spec, e);
            }
        }
    }

    /**
     * Designs by paper or constant name; {@code all} stands for every implemented design.
     *
     * @throws IllegalArgumentException naming an unknown design
     */
    static List<EndpointDesign> designs(List<String> names) {
        List<EndpointDesign> designs = new ArrayList<>();
        for (String name : names) {
            if (name.equalsIgnoreCase("all")) {
                designs.addAll(ShuffleThroughputConfig.implementedDesigns());
            } else {
                designs.add(EndpointDesign.parse(name));
            }
        }
        return designs;
    }

    /**
     * The designs that run on RC queue pairs alone; {@code refuse}: a UD design among {@code designs} is refused (the
     * user named it) instead of left out.
     *
     * @throws IllegalArgumentException naming the UD design
     */
    static List<EndpointDesign> rcDesigns(List<EndpointDesign> designs, boolean refuse) {
        List<EndpointDesign> rc = new ArrayList<>();
        for (EndpointDesign design : designs) {
            if (!design.implementation().needsDatagrams()) {
                rc.add(design);
            } else if (refuse) {
                throw new IllegalArgumentException(design.paperName() + " needs UD queue pairs, which the ucx fabric"
                        + " does not have: use an RC design or --provider net");
            }
        }
        return rc;
    }

    /** A row count with an optional K/M suffix (powers of 1024), at most 2^31 - 1. */
    static final class RowsConverter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            long rows;
            try {
                rows = ByteSizes.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(
                        "'" + value + "' is not a row count: use a positive number with an optional K or M suffix");
            }
            if (rows > Integer.MAX_VALUE) {
                throw new CommandLine.TypeConversionException("'" + value + "' is more rows than a table can hold");
            }
            return (int) rows;
        }
    }
}
