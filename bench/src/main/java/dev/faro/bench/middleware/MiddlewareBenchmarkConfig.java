package dev.faro.bench.middleware;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What {@code faro bench middleware} runs.
 *
 * @param provider the fabric provider the middleware runs on ({@code shm}, {@code net}, {@code ucx})
 * @param experiments {@code v1} (2-stage shuffle, NIO against the middleware, V3 and V4 counts with it),
 *     {@code v2} (write-threshold sweep) and/or {@code fig5} (the TPC-C queries through the engine, NIO against the
 *     middleware, at each process count and workers per process)
 * @param processes process counts (worker JVMs) of V1 and V2 (the paper: 4 and 8)
 * @param workers workers per process of V1 (the paper varies them; 1, 2, 4)
 * @param rowsPerProcess integers each process generates (the paper: 5 M)
 * @param ringBytes ring (and NIO buffer) size (the paper: 64 KB)
 * @param writeThreshold V1's write threshold (the paper: 16 KB)
 * @param thresholds V2's write thresholds in bytes (the paper's Fig. 4: 0 … 64 KB), at 2 workers per process
 * @param runs runs per point; the median time is kept (the paper averages 8)
 * @param outputDirectory where CSV and PNG files go
 * @param warehouses fig5's TPC-C warehouses (the paper: scale 15 at 4 and 30 at 8 instances on real machines)
 */
public record MiddlewareBenchmarkConfig(
        String provider,
        List<String> experiments,
        List<Integer> processes,
        List<Integer> workers,
        long rowsPerProcess,
        int ringBytes,
        int writeThreshold,
        List<Integer> thresholds,
        int runs,
        Path outputDirectory,
        int warehouses) {

    public static final Path DEFAULT_OUTPUT_DIRECTORY = Path.of("results");

    /** Fig. 5's default TPC-C size: 2 warehouses fit this host and keep the run short. */
    public static final int DEFAULT_WAREHOUSES = 2;

    /** The most warehouses fig5 takes (the load handler's bound). */
    public static final int MAX_WAREHOUSES = 64;

    public MiddlewareBenchmarkConfig {
        Objects.requireNonNull(provider, "provider is null");
        experiments = List.copyOf(experiments);
        processes = List.copyOf(processes);
        workers = List.copyOf(workers);
        thresholds = List.copyOf(thresholds);
        Objects.requireNonNull(outputDirectory, "outputDirectory is null");
        for (String experiment : experiments) {
            if (!experiment.equals("v1") && !experiment.equals("v2") && !experiment.equals("fig5")) {
                throw new IllegalArgumentException("--experiments takes v1, v2 and fig5, not '" + experiment + "'");
            }
        }
        for (int p : processes) {
            if (p < 2 || p > 16) {
                throw new IllegalArgumentException("--processes must be in 2..16: " + p);
            }
        }
        for (int w : workers) {
            if (w < 1 || w > 16) {
                throw new IllegalArgumentException("--workers-per-process must be in 1..16: " + w);
            }
        }
        if (rowsPerProcess < 1 || rowsPerProcess > 1_000_000_000L) {
            throw new IllegalArgumentException("--rows must be in 1..1000000000: " + rowsPerProcess);
        }
        if (ringBytes < 1024 || Integer.bitCount(ringBytes) != 1) {
            throw new IllegalArgumentException("--ring must be a power of two of at least 1024 bytes: " + ringBytes);
        }
        for (int t : thresholds) {
            if (t < 0 || t > ringBytes) {
                throw new IllegalArgumentException("write thresholds must be in 0.." + ringBytes + ": " + t);
            }
        }
        if (writeThreshold < 0 || writeThreshold > ringBytes) {
            throw new IllegalArgumentException("--write-threshold must be in 0.." + ringBytes + ": " + writeThreshold);
        }
        if (runs < 1 || runs > 100) {
            throw new IllegalArgumentException("--runs must be in 1..100: " + runs);
        }
        if (warehouses < 1 || warehouses > MAX_WAREHOUSES) {
            throw new IllegalArgumentException("--warehouses must be in 1.." + MAX_WAREHOUSES + ": " + warehouses);
        }
    }

    /** The paper's settings: 4 and 8 processes, 1/2/4 workers, 5 M integers, 64 KB rings, 16 KB, 3 runs. */
    public static MiddlewareBenchmarkConfig defaults() {
        return new MiddlewareBenchmarkConfig(
                "shm",
                List.of("v1", "v2"),
                List.of(4, 8),
                List.of(1, 2, 4),
                5_000_000,
                64 * 1024,
                16 * 1024,
                List.of(0, 1024, 4 * 1024, 16 * 1024, 32 * 1024, 64 * 1024),
                3,
                DEFAULT_OUTPUT_DIRECTORY,
                DEFAULT_WAREHOUSES);
    }

    /** A smoke test: 4 processes, 1 and 2 workers, 200 k integers, one run. */
    public static MiddlewareBenchmarkConfig quick() {
        MiddlewareBenchmarkConfig d = defaults();
        return new MiddlewareBenchmarkConfig(
                d.provider,
                d.experiments,
                List.of(4),
                List.of(1, 2),
                200_000,
                d.ringBytes,
                d.writeThreshold,
                d.thresholds,
                1,
                d.outputDirectory,
                d.warehouses);
    }

    public MiddlewareBenchmarkConfig with(
            String newProvider,
            List<String> newExperiments,
            List<Integer> newProcesses,
            List<Integer> newWorkers,
            long newRows,
            int newRuns,
            Path newOutput) {
        return new MiddlewareBenchmarkConfig(
                newProvider,
                newExperiments,
                newProcesses,
                newWorkers,
                newRows,
                ringBytes,
                writeThreshold,
                thresholds,
                newRuns,
                newOutput,
                warehouses);
    }

    /** This config with V1's write threshold (of the middleware and the NIO baseline) set to {@code bytes}. */
    public MiddlewareBenchmarkConfig withWriteThreshold(int bytes) {
        return new MiddlewareBenchmarkConfig(
                provider,
                experiments,
                processes,
                workers,
                rowsPerProcess,
                ringBytes,
                bytes,
                thresholds,
                runs,
                outputDirectory,
                warehouses);
    }

    /** This config with fig5's TPC-C database of {@code count} warehouses. */
    public MiddlewareBenchmarkConfig withWarehouses(int count) {
        return new MiddlewareBenchmarkConfig(
                provider,
                experiments,
                processes,
                workers,
                rowsPerProcess,
                ringBytes,
                writeThreshold,
                thresholds,
                runs,
                outputDirectory,
                count);
    }

    /**
     * The heap of a local worker JVM: 256 MiB, and with fig5 beyond 2 warehouses 40 MiB more per warehouse (the
     * sequential run holds the whole database in one JVM: about 21 MiB per warehouse plus 11 MiB, and its joins).
     */
    public long workerHeapMiB() {
        return experiments.contains("fig5") ? Math.max(256, 176 + 40L * warehouses) : 256;
    }

    /** The largest process count: the cluster needs that many worker JVMs. */
    public int maxProcesses() {
        return processes.stream().mapToInt(Integer::intValue).max().orElse(2);
    }

    MiddlewareCase baseCase(int processCount) {
        return new MiddlewareCase(MiddlewareCase.FABRIC, processCount, 1, rowsPerProcess, ringBytes, writeThreshold);
    }
}
