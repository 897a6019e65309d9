package dev.faro.bench.shuffle;

import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.setup.EndpointFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The parameters of one {@code faro bench shuffle throughput} run. Immutable and validated; node counts come out
 * sorted without duplicates, designs in enum order without duplicates.
 *
 * @param nodeCounts cluster sizes to measure (worker processes taking part)
 * @param designs endpoint designs to measure; each must be implemented
 * @param threads SHUFFLE threads and RECEIVE threads per node
 * @param tuplesPerThread rows of each sending thread's table of 16-byte tuples
 * @param scans how many times each thread sends its table per run
 * @param runs timed runs per design and node count; the report gives the median
 * @param warmupRuns untimed runs per design and node count before the timed ones (JIT, page faults)
 * @param outputDirectory where the CSV, JSON and PNG files go
 */
public record ShuffleThroughputConfig(
        List<Integer> nodeCounts,
        List<EndpointDesign> designs,
        int threads,
        int tuplesPerThread,
        int scans,
        int runs,
        int warmupRuns,
        Path outputDirectory) {

    public static final List<Integer> DEFAULT_NODE_COUNTS = List.of(2, 4);
    public static final int DEFAULT_THREADS = 2;
    /** 1 Mi rows: a 16 MiB table per thread. */
    public static final int DEFAULT_TUPLES_PER_THREAD = 1 << 20;

    public static final int DEFAULT_SCANS = 4;
    public static final int DEFAULT_RUNS = 3;
    public static final int DEFAULT_WARMUP_RUNS = 1;
    public static final int QUICK_TUPLES_PER_THREAD = 1 << 15;
    public static final int QUICK_SCANS = 1;
    public static final int QUICK_RUNS = 1;
    public static final int QUICK_WARMUP_RUNS = 0;
    public static final int MAX_NODES = 16;
    public static final Path DEFAULT_OUTPUT_DIRECTORY = Path.of("results");

    public ShuffleThroughputConfig {
        Objects.requireNonNull(outputDirectory, "outputDirectory is null");
        nodeCounts = nodeCounts.stream().distinct().sorted().toList();
        designs = designs.stream().distinct().sorted().toList();
        check(!nodeCounts.isEmpty(), "at least one node count is needed");
        check(!designs.isEmpty(), "at least one design is needed");
        for (int nodes : nodeCounts) {
            check(nodes >= 1 && nodes <= MAX_NODES, "node counts must be in [1, " + MAX_NODES + "]: " + nodes);
        }
        for (EndpointDesign design : designs) {
            check(EndpointFactory.isImplemented(design), "design " + design.paperName() + " is not implemented yet");
        }
        check(
                threads >= 1 && threads <= ShuffleTuples.MAX_THREADS,
                "threads must be in [1, " + ShuffleTuples.MAX_THREADS + "]: " + threads);
        check(tuplesPerThread >= 1, "tuples per thread must be at least 1: " + tuplesPerThread);
        check(scans >= 1, "scans must be at least 1: " + scans);
        check(runs >= 1, "runs must be at least 1: " + runs);
        check(warmupRuns >= 0, "warm-up runs must not be negative: " + warmupRuns);
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Every design the shuffle module implements, in enum order. */
    public static List<EndpointDesign> implementedDesigns() {
        return Arrays.stream(EndpointDesign.values())
                .filter(EndpointFactory::isImplemented)
                .toList();
    }

    /** The defaults: every implemented design at 2 and 4 nodes, 2 threads, 1 Mi rows scanned 4 times, 3 runs. */
    public static ShuffleThroughputConfig defaults() {
        return new ShuffleThroughputConfig(
                DEFAULT_NODE_COUNTS,
                implementedDesigns(),
                DEFAULT_THREADS,
                DEFAULT_TUPLES_PER_THREAD,
                DEFAULT_SCANS,
                DEFAULT_RUNS,
                DEFAULT_WARMUP_RUNS,
                DEFAULT_OUTPUT_DIRECTORY);
    }

    /** A smoke test: the same designs and node counts, 32 Ki rows once, one run, no warm-up. */
    public static ShuffleThroughputConfig quick() {
        return new ShuffleThroughputConfig(
                DEFAULT_NODE_COUNTS,
                implementedDesigns(),
                DEFAULT_THREADS,
                QUICK_TUPLES_PER_THREAD,
                QUICK_SCANS,
                QUICK_RUNS,
                QUICK_WARMUP_RUNS,
                DEFAULT_OUTPUT_DIRECTORY);
    }

    public ShuffleThroughputConfig withNodeCounts(List<Integer> counts) {
        return new ShuffleThroughputConfig(
                counts, designs, threads, tuplesPerThread, scans, runs, warmupRuns, outputDirectory);
    }

    public ShuffleThroughputConfig withDesigns(List<EndpointDesign> newDesigns) {
        return new ShuffleThroughputConfig(
                nodeCounts, newDesigns, threads, tuplesPerThread, scans, runs, warmupRuns, outputDirectory);
    }

    public ShuffleThroughputConfig withThreads(int newThreads) {
        return new ShuffleThroughputConfig(
                nodeCounts, designs, newThreads, tuplesPerThread, scans, runs, warmupRuns, outputDirectory);
    }

    public ShuffleThroughputConfig withTuplesPerThread(int tuples) {
        return new ShuffleThroughputConfig(
                nodeCounts, designs, threads, tuples, scans, runs, warmupRuns, outputDirectory);
    }

    public ShuffleThroughputConfig withScans(int newScans) {
        return new ShuffleThroughputConfig(
                nodeCounts, designs, threads, tuplesPerThread, newScans, runs, warmupRuns, outputDirectory);
    }

    public ShuffleThroughputConfig withRuns(int newRuns) {
        return new ShuffleThroughputConfig(
                nodeCounts, designs, threads, tuplesPerThread, scans, newRuns, warmupRuns, outputDirectory);
    }

    public ShuffleThroughputConfig withWarmupRuns(int newWarmupRuns) {
        return new ShuffleThroughputConfig(
                nodeCounts, designs, threads, tuplesPerThread, scans, runs, newWarmupRuns, outputDirectory);
    }

    public ShuffleThroughputConfig withOutputDirectory(Path directory) {
        return new ShuffleThroughputConfig(
                nodeCounts, designs, threads, tuplesPerThread, scans, runs, warmupRuns, directory);
    }

    /** The largest node count: the number of worker processes to start. */
    public int workers() {
        return nodeCounts.get(nodeCounts.size() - 1);
    }

    /** Busy threads per node (SHUFFLE plus RECEIVE) times the largest node count. */
    public int busyThreads() {
        return 2 * threads * workers();
    }

    /** The repartition case of one run. */
    public ShuffleCase shuffleCase(EndpointDesign design, int nodes) {
        return ShuffleCase.of(design, ShufflePattern.REPARTITION, nodes, threads, tuplesPerThread)
                .withScans(scans)
                .withDefaultBuffers();
    }
}
