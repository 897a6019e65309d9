package dev.faro.bench.zerosided;

import dev.faro.zerosided.link.LinkKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The parameters of {@code faro bench zerosided} (validation V1/V4 of the digest: throughput against endpoint threads,
 * zero-sided against a CPU-driven one-sided baseline).
 *
 * @param flows the concurrent 1:1 flow counts to measure (each flow has one producer and one consumer thread)
 * @param drivers the CPU driver thread counts of the baseline
 * @param itemBytes item size (the paper's Fig. 6 point: 4 KiB)
 * @param capacity slots per buffer
 * @param maxBatchBytes the batching cap of the switch and the drivers
 * @param warmupSeconds untimed time per run before its window
 * @param seconds the timed window per run
 * @param runs runs per point; the table shows the median
 * @param provider the verbs fabric of the CPU-driven baseline and of the cluster ({@code shm}, {@code net}, {@code ucx})
 * @param link the zero-sided packet link between the switch and the NICs ({@code shm}: shared-memory rings, the
 *     default; {@code udp}: UDP on 127.0.0.1)
 * @param experiments the experiments beyond Fig. 6 to run after it (names of {@link ZeroSidedExperiments#ALL})
 * @param outputDirectory where CSV, JSON and PNG go
 * @param pin whether Fig. 6 pins "the network" (switch, NICs, fabric progress threads) to one CPU and the processing
 *     units' threads (and the baseline's drivers) to another ({@link CorePlacement})
 * @param endpointWork 0: endpoint threads only push and pop, parking when they cannot; else they are compute-bound:
 *     between items each does units of this many hash iterations and never parks, so communication competes with
 *     useful work for their CPU (the units done are the useful work reported)
 */
public record ZeroSidedBenchConfig(
        List<Integer> flows,
        List<Integer> drivers,
        int itemBytes,
        int capacity,
        int maxBatchBytes,
        double warmupSeconds,
        double seconds,
        int runs,
        String provider,
        String link,
        List<String> experiments,
        Path outputDirectory,
        boolean pin,
        int endpointWork) {

    /** Flows 1, 2, 4; drivers 1, 2; 4 KiB items; 256 slots; 256 KiB batches; 0.5 s + 2 s; 3 runs; shm; shm link. */
    public static final ZeroSidedBenchConfig DEFAULT = new ZeroSidedBenchConfig(
            List.of(1, 2, 4),
            List.of(1, 2),
            4096,
            256,
            256 << 10,
            0.5,
            2,
            3,
            "shm",
            "shm",
            ZeroSidedExperiments.ALL,
            Path.of("results"),
            false,
            0);

    /** A smoke test: flows 1 and 2, one short run per point. */
    public static final ZeroSidedBenchConfig QUICK = new ZeroSidedBenchConfig(
            List.of(1, 2),
            List.of(1, 2),
            4096,
            256,
            256 << 10,
            0.2,
            0.5,
            1,
            "shm",
            "shm",
            ZeroSidedExperiments.ALL,
            Path.of("results"),
            false,
            0);

    public ZeroSidedBenchConfig {
        flows = List.copyOf(flows);
        drivers = List.copyOf(drivers);
        Objects.requireNonNull(provider, "provider is null");
        Objects.requireNonNull(link, "link is null");
        LinkKind.of(link);
        experiments = List.copyOf(experiments);
        for (String experiment : experiments) {
            check(
                    ZeroSidedExperiments.isExperiment(experiment),
                    "unknown experiment " + experiment + ": known are " + String.join(", ", ZeroSidedExperiments.ALL));
        }
        Objects.requireNonNull(outputDirectory, "outputDirectory is null");
        check(!flows.isEmpty() && flows.stream().allMatch(f -> f >= 1 && f <= 64), "flows must be within [1, 64]");
        check(
                !drivers.isEmpty() && drivers.stream().allMatch(d -> d >= 1 && d <= 16),
                "drivers must be within [1, 16]");
        check(
                itemBytes >= 8 && itemBytes % 8 == 0 && itemBytes <= 1 << 20,
                "item size must be a multiple of 8 up to 1M");
        check(capacity >= 2 && capacity <= 1 << 16, "capacity must be within [2, 65536]");
        check(maxBatchBytes >= itemBytes && maxBatchBytes <= 4 << 20, "batch must be within [item size, 4M]");
        check(warmupSeconds >= 0 && seconds > 0 && seconds <= 600, "seconds must be within (0, 600]");
        check(runs >= 1 && runs <= 100, "runs must be within [1, 100]");
        check(endpointWork >= 0 && endpointWork <= 1_000_000, "endpoint work must be within [0, 1000000]");
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    public ZeroSidedBenchConfig with(
            List<Integer> newFlows,
            List<Integer> newDrivers,
            Integer newItemBytes,
            Double newSeconds,
            Integer newRuns) {
        return new ZeroSidedBenchConfig(
                newFlows == null ? flows : newFlows,
                newDrivers == null ? drivers : newDrivers,
                newItemBytes == null ? itemBytes : newItemBytes,
                capacity,
                Math.max(maxBatchBytes, newItemBytes == null ? itemBytes : newItemBytes),
                warmupSeconds,
                newSeconds == null ? seconds : newSeconds,
                newRuns == null ? runs : newRuns,
                provider,
                link,
                experiments,
                outputDirectory,
                pin,
                endpointWork);
    }

    public ZeroSidedBenchConfig withProvider(String value) {
        return new ZeroSidedBenchConfig(
                flows,
                drivers,
                itemBytes,
                capacity,
                maxBatchBytes,
                warmupSeconds,
                seconds,
                runs,
                value,
                link,
                experiments,
                outputDirectory,
                pin,
                endpointWork);
    }

    public ZeroSidedBenchConfig withOutputDirectory(Path value) {
        return new ZeroSidedBenchConfig(
                flows,
                drivers,
                itemBytes,
                capacity,
                maxBatchBytes,
                warmupSeconds,
                seconds,
                runs,
                provider,
                link,
                experiments,
                value,
                pin,
                endpointWork);
    }

    public ZeroSidedBenchConfig withExperiments(List<String> value) {
        return new ZeroSidedBenchConfig(
                flows,
                drivers,
                itemBytes,
                capacity,
                maxBatchBytes,
                warmupSeconds,
                seconds,
                runs,
                provider,
                link,
                value,
                outputDirectory,
                pin,
                endpointWork);
    }

    public ZeroSidedBenchConfig withLink(String value) {
        return new ZeroSidedBenchConfig(
                flows,
                drivers,
                itemBytes,
                capacity,
                maxBatchBytes,
                warmupSeconds,
                seconds,
                runs,
                provider,
                value,
                experiments,
                outputDirectory,
                pin,
                endpointWork);
    }

    /** Fig. 6 with the network and the processing units on separate CPUs, and compute-bound endpoints. */
    public ZeroSidedBenchConfig withPlacement(boolean newPin, int newEndpointWork) {
        return new ZeroSidedBenchConfig(
                flows,
                drivers,
                itemBytes,
                capacity,
                maxBatchBytes,
                warmupSeconds,
                seconds,
                runs,
                provider,
                link,
                experiments,
                outputDirectory,
                newPin,
                newEndpointWork);
    }
}
