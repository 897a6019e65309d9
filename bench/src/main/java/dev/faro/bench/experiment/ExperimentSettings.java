package dev.faro.bench.experiment;

import dev.faro.bench.shuffle.ShuffleTuples;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The knobs every experiment shares. Immutable and validated; node counts come out sorted without duplicates.
 *
 * @param nodeCounts cluster sizes (experiments at a fixed size use the first)
 * @param threads SHUFFLE threads and RECEIVE threads per node
 * @param tuplesPerThread rows of each sending thread's table of 16-byte tuples
 * @param scans how many times each thread sends its table, before calibration
 * @param runs timed runs per trial; tables show the median
 * @param warmupRuns untimed runs per trial first; the first one also calibrates the data volume
 * @param minimumSeconds calibration target: after the warm-up, each group's scans grow until its fastest trial takes
 *     at least this long (0: no calibration)
 * @param quick whether this is the smoke-test form (experiments shrink their sweeps)
 * @param outputDirectory where the CSV, JSON and PNG files go
 */
public record ExperimentSettings(
        List<Integer> nodeCounts,
        int threads,
        int tuplesPerThread,
        int scans,
        int runs,
        int warmupRuns,
        double minimumSeconds,
        boolean quick,
        Path outputDirectory) {

    public static final Path DEFAULT_OUTPUT_DIRECTORY = Path.of("results");
    public static final int MAX_NODES = 16;

    public ExperimentSettings {
        Objects.requireNonNull(outputDirectory, "outputDirectory is null");
        nodeCounts = nodeCounts.stream().distinct().sorted().toList();
        check(!nodeCounts.isEmpty(), "at least one node count is needed");
        for (int nodes : nodeCounts) {
            check(nodes >= 1 && nodes <= MAX_NODES, "node counts must be in [1, " + MAX_NODES + "]: " + nodes);
        }
        check(
                threads >= 1 && threads <= ShuffleTuples.MAX_THREADS,
                "threads must be in [1, " + ShuffleTuples.MAX_THREADS + "]: " + threads);
        check(tuplesPerThread >= 1, "tuples per thread must be at least 1: " + tuplesPerThread);
        check(scans >= 1, "scans must be at least 1: " + scans);
        check(runs >= 1, "runs must be at least 1: " + runs);
        check(warmupRuns >= 0, "warm-up runs must not be negative: " + warmupRuns);
        check(minimumSeconds >= 0 && minimumSeconds <= 600, "minimum seconds must be in [0, 600]: " + minimumSeconds);
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** The full form: 2 threads, 256 Ki rows per thread, 3 timed runs after one warm-up, at least 2 s each. */
    public static ExperimentSettings defaults(List<Integer> nodeCounts) {
        return new ExperimentSettings(nodeCounts, 2, 1 << 18, 1, 3, 1, 2.0, false, DEFAULT_OUTPUT_DIRECTORY);
    }

    /** The smoke test: 16 Ki rows per thread once, one run, no warm-up, no calibration. */
    public static ExperimentSettings quick(List<Integer> nodeCounts) {
        return new ExperimentSettings(nodeCounts, 2, 1 << 14, 1, 1, 0, 0, true, DEFAULT_OUTPUT_DIRECTORY);
    }

    public ExperimentSettings withNodeCounts(List<Integer> counts) {
        return new ExperimentSettings(
                counts, threads, tuplesPerThread, scans, runs, warmupRuns, minimumSeconds, quick, outputDirectory);
    }

    public ExperimentSettings withThreads(int newThreads) {
        return new ExperimentSettings(
                nodeCounts,
                newThreads,
                tuplesPerThread,
                scans,
                runs,
                warmupRuns,
                minimumSeconds,
                quick,
                outputDirectory);
    }

    public ExperimentSettings withTuplesPerThread(int tuples) {
        return new ExperimentSettings(
                nodeCounts, threads, tuples, scans, runs, warmupRuns, minimumSeconds, quick, outputDirectory);
    }

    public ExperimentSettings withScans(int newScans) {
        return new ExperimentSettings(
                nodeCounts,
                threads,
                tuplesPerThread,
                newScans,
                runs,
                warmupRuns,
                minimumSeconds,
                quick,
                outputDirectory);
    }

    public ExperimentSettings withRuns(int newRuns) {
        return new ExperimentSettings(
                nodeCounts,
                threads,
                tuplesPerThread,
                scans,
                newRuns,
                warmupRuns,
                minimumSeconds,
                quick,
                outputDirectory);
    }

    public ExperimentSettings withWarmupRuns(int newWarmupRuns) {
        return new ExperimentSettings(
                nodeCounts,
                threads,
                tuplesPerThread,
                scans,
                runs,
                newWarmupRuns,
                minimumSeconds,
                quick,
                outputDirectory);
    }

    public ExperimentSettings withMinimumSeconds(double seconds) {
        return new ExperimentSettings(
                nodeCounts, threads, tuplesPerThread, scans, runs, warmupRuns, seconds, quick, outputDirectory);
    }

    public ExperimentSettings withOutputDirectory(Path directory) {
        return new ExperimentSettings(
                nodeCounts, threads, tuplesPerThread, scans, runs, warmupRuns, minimumSeconds, quick, directory);
    }

    /** The smallest node count (experiments at one cluster size). */
    public int smallestNodeCount() {
        return nodeCounts.get(0);
    }
}
