package dev.faro.bench.fabric;

import dev.faro.bench.ByteSizes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The parameters of one {@code faro bench fabric} run. Immutable and validated; sizes come out sorted and without
 * duplicates, operations without duplicates.
 *
 * @param provider the fabric provider both workers open ({@code shm})
 * @param sizesBytes message sizes to measure
 * @param operations operations to measure; UD SEND is measured only for sizes up to the provider's UD MTU
 * @param runs timed runs per point (operation and size); the report gives the median
 * @param runDuration how long one timed run of one point lasts; memcpy runs as long, interleaved with it
 * @param window requests the initiator keeps outstanding
 * @param workingSetBytes bytes each buffer cycles through (the initiator's source, the target's destination, and
 *     each of memcpy's two buffers), so that copies go to memory rather than staying in a cache
 * @param outputDirectory where the CSV, JSON and PNG files go
 */
public record FabricBenchmarkConfig(
        String provider,
        List<Integer> sizesBytes,
        List<FabricOperation> operations,
        int runs,
        Duration runDuration,
        int window,
        long workingSetBytes,
        Path outputDirectory) {

    public static final String DEFAULT_PROVIDER = "shm";
    public static final List<Integer> DEFAULT_SIZES =
            List.of(64, 256, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20);
    public static final List<Integer> QUICK_SIZES = List.of(64, 4 << 10, 64 << 10);
    public static final int DEFAULT_RUNS = 5;
    public static final int QUICK_RUNS = 3;
    public static final Duration DEFAULT_RUN_DURATION = Duration.ofMillis(300);
    public static final Duration QUICK_RUN_DURATION = Duration.ofMillis(50);
    public static final int DEFAULT_WINDOW = 32;
    public static final int MAX_WINDOW = 1024;
    public static final long DEFAULT_WORKING_SET_BYTES = 64L << 20;
    public static final long MAX_WORKING_SET_BYTES = 1L << 30;
    public static final Path DEFAULT_OUTPUT_DIRECTORY = Path.of("results");

    public FabricBenchmarkConfig {
        Objects.requireNonNull(provider, "provider is null");
        Objects.requireNonNull(runDuration, "runDuration is null");
        Objects.requireNonNull(outputDirectory, "outputDirectory is null");
        sizesBytes = sizesBytes.stream().distinct().sorted().toList();
        operations = operations.stream().distinct().toList();
        check(!provider.isBlank(), "provider must not be blank");
        check(!sizesBytes.isEmpty(), "at least one size is needed");
        check(!operations.isEmpty(), "at least one operation is needed");
        check(runs >= 1, "runs must be at least 1: " + runs);
        check(
                !runDuration.isNegative() && runDuration.toNanos() >= 1_000_000,
                "the time per point must be at least 1 ms: " + runDuration);
        check(window >= 1 && window <= MAX_WINDOW, "window must be in [1, " + MAX_WINDOW + "]: " + window);
        check(
                workingSetBytes >= 4096 && workingSetBytes <= MAX_WORKING_SET_BYTES,
                "working set must be between 4K and " + ByteSizes.formatCompact(MAX_WORKING_SET_BYTES) + ": "
                        + workingSetBytes);
        for (int size : sizesBytes) {
            check(size >= 1, "sizes must be positive: " + size);
            check(
                    size <= workingSetBytes,
                    "size " + ByteSizes.formatCompact(size) + " exceeds the working set of "
                            + ByteSizes.formatCompact(workingSetBytes));
        }
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** The defaults of {@code faro bench fabric}: every operation, 64 B to 1 MiB, 5 runs of 0.3 s per point. */
    public static FabricBenchmarkConfig defaults() {
        return new FabricBenchmarkConfig(
                DEFAULT_PROVIDER,
                DEFAULT_SIZES,
                List.of(FabricOperation.values()),
                DEFAULT_RUNS,
                DEFAULT_RUN_DURATION,
                DEFAULT_WINDOW,
                DEFAULT_WORKING_SET_BYTES,
                DEFAULT_OUTPUT_DIRECTORY);
    }

    /** {@code --quick}: three sizes, three runs of 50 ms per point; a smoke test that finishes in seconds. */
    public static FabricBenchmarkConfig quick() {
        return defaults().withSizes(QUICK_SIZES).withRuns(QUICK_RUNS).withRunDuration(QUICK_RUN_DURATION);
    }

    public FabricBenchmarkConfig withProvider(String newProvider) {
        return new FabricBenchmarkConfig(
                newProvider, sizesBytes, operations, runs, runDuration, window, workingSetBytes, outputDirectory);
    }

    public FabricBenchmarkConfig withSizes(List<Integer> newSizes) {
        return new FabricBenchmarkConfig(
                provider, newSizes, operations, runs, runDuration, window, workingSetBytes, outputDirectory);
    }

    public FabricBenchmarkConfig withOperations(List<FabricOperation> newOperations) {
        return new FabricBenchmarkConfig(
                provider, sizesBytes, newOperations, runs, runDuration, window, workingSetBytes, outputDirectory);
    }

    public FabricBenchmarkConfig withRuns(int newRuns) {
        return new FabricBenchmarkConfig(
                provider, sizesBytes, operations, newRuns, runDuration, window, workingSetBytes, outputDirectory);
    }

    public FabricBenchmarkConfig withRunDuration(Duration newRunDuration) {
        return new FabricBenchmarkConfig(
                provider, sizesBytes, operations, runs, newRunDuration, window, workingSetBytes, outputDirectory);
    }

    public FabricBenchmarkConfig withWindow(int newWindow) {
        return new FabricBenchmarkConfig(
                provider, sizesBytes, operations, runs, runDuration, newWindow, workingSetBytes, outputDirectory);
    }

    public FabricBenchmarkConfig withWorkingSetBytes(long newWorkingSetBytes) {
        return new FabricBenchmarkConfig(
                provider, sizesBytes, operations, runs, runDuration, window, newWorkingSetBytes, outputDirectory);
    }

    public FabricBenchmarkConfig withOutputDirectory(Path newOutputDirectory) {
        return new FabricBenchmarkConfig(
                provider, sizesBytes, operations, runs, runDuration, window, workingSetBytes, newOutputDirectory);
    }
}
