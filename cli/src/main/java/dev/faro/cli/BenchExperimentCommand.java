package dev.faro.cli;

import dev.faro.bench.experiment.ExperimentDriver;
import dev.faro.bench.experiment.ExperimentReport;
import dev.faro.bench.experiment.ExperimentSettings;
import dev.faro.cluster.coordinator.ClusterStart;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every {@code faro bench shuffle eN} command shares, over an {@link ExperimentDriver}: parses them into
 * {@link ExperimentSettings} (starting from the driver's full or {@code --quick} defaults), runs the driver and
 * prints its table and the files it wrote. Bad values are parameter errors (exit 2). The workers are a local cluster,
 * or with {@code --listen ADDR:PORT --workers N} ({@link ClusterOptions}) workers started elsewhere that join ({@link
 * ShuffleWorkers}: they fix the node counts; the MPI baseline is skipped, and on ucx the UD designs). Wiring only.
 */
abstract class BenchExperimentCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--nodes",
            paramLabel = "N",
            split = ",",
            description = "Node counts (worker processes); experiments at one size use the smallest (with --listen:"
                    + " the default ones below --workers, and --workers).")
    private List<Integer> nodeCounts;

    @Mixin
    private ClusterOptions cluster;

    @Option(names = "--threads", paramLabel = "N", description = "SHUFFLE and RECEIVE threads per node (default: 2).")
    private Integer threads;

    @Option(
            names = "--tuples",
            paramLabel = "ROWS",
            converter = BenchShuffleCommand.RowsConverter.class,
            description = "Rows of each sending thread's table, K/M suffixes (default: 256K; --quick: 16K).")
    private Integer tuples;

    @Option(
            names = "--scans",
            paramLabel = "N",
            description = "Scans of each table per run before calibration (default: 1).")
    private Integer scans;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description = "Timed runs per trial; tables show the median (default: 3; --quick: 1).")
    private Integer runs;

    @Option(
            names = "--warmup-runs",
            paramLabel = "N",
            description = "Untimed runs per trial first; the first calibrates the volume (default: 1; --quick: 0).")
    private Integer warmupRuns;

    @Option(
            names = "--min-seconds",
            paramLabel = "S",
            description = "Calibrate scans so that each trial's timed runs take at least this long (default: 2;"
                    + " --quick: 0 = no calibration).")
    private Double minimumSeconds;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results).")
    private Path outputDirectory;

    @Option(names = "--quick", description = "A smoke test: small tables, one run, shorter sweeps.")
    private boolean quick;

    /** The experiment this command runs. */
    abstract ExperimentDriver driver();

    @Override
    public Integer call() throws InterruptedException {
        ExperimentDriver driver = driver();
        ExperimentSettings settings = settings(driver);
        BenchRun run = new BenchRun(spec);
        ClusterStart joined = run.options(() -> {
            ClusterStart start = ShuffleWorkers.joined(cluster, run.progress());
            driver.checkRunnable(settings, start);
            return start;
        });
        return run.run(out -> {
            ExperimentReport report = driver.run(settings, joined, run.progress());
            out.print(report.table());
            List<Path> files = new ArrayList<>(List.of(report.csvFile(), report.metadataFile()));
            files.addAll(report.plotFiles());
            BenchRun.printWrote(out, files);
        });
    }

    /** The options over the driver's defaults; invalid values are usage errors. */
    ExperimentSettings settings(ExperimentDriver driver) {
        try {
            ExperimentSettings settings = driver.defaults(quick);
            settings = settings.withNodeCounts(ShuffleWorkers.nodeCounts(cluster, nodeCounts, settings.nodeCounts()));
            if (threads != null) {
                settings = settings.withThreads(threads);
            }
            if (tuples != null) {
                settings = settings.withTuplesPerThread(tuples);
            }
            if (scans != null) {
                settings = settings.withScans(scans);
            }
            if (runs != null) {
                settings = settings.withRuns(runs);
            }
            if (warmupRuns != null) {
                settings = settings.withWarmupRuns(warmupRuns);
            }
            if (minimumSeconds != null) {
                settings = settings.withMinimumSeconds(minimumSeconds);
            }
            if (outputDirectory != null) {
                settings = settings.withOutputDirectory(outputDirectory);
            }
            return settings;
        } catch (IllegalArgumentException e) {
            throw BenchRun.usageError(spec, e);
        }
    }
}
