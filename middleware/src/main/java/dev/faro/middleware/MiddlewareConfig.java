package dev.faro.middleware;

import dev.faro.fabric.FaroException;

/**
 * The shape and knobs of one {@link ShuffleMiddleware}: how many processes and workers, how big the shared rings are,
 * and the DAIS16 batching thresholds. Every process of a cluster must open the middleware with an equal config.
 *
 * @param processes processes (the paper's DQE instances), at least 1
 * @param workersPerProcess worker threads per process, at least 1
 * @param ringBytes capacity of each ring (one outgoing and one incoming per worker pair); a power of two, ≥ 1 KiB
 *     (the paper: 64 KB)
 * @param writeThreshold bytes a worker lets pend in an outgoing ring before it posts a WRITE, unless flushed or the ring is full (the
 *     paper: 16 KB best on Soft-iWARP); 0 writes at once; at most {@code ringBytes}
 * @param readNotifyThreshold bytes a worker consumes from an incoming ring before it tells the sender with a READ
 *     notification; at least 8, at most {@code ringBytes / 2}
 * @param maxRowBytes the largest row payload; at most {@code ringBytes / 4}
 */
public record MiddlewareConfig(
        int processes,
        int workersPerProcess,
        int ringBytes,
        int writeThreshold,
        int readNotifyThreshold,
        int maxRowBytes) {

    /** The paper's write threshold: 16 KB. */
    public static final int DEFAULT_WRITE_THRESHOLD = 16 * 1024;
    /** The paper's ring size: 64 KB. */
    public static final int DEFAULT_RING_BYTES = 64 * 1024;

    public MiddlewareConfig {
        FaroException.checkArgument(processes >= 1, "processes must be at least 1: %d", processes);
        FaroException.checkArgument(
                workersPerProcess >= 1 && workersPerProcess <= 1024,
                "workersPerProcess must be in 1..1024: %d",
                workersPerProcess);
        FaroException.checkArgument(
                ringBytes >= 1024 && Integer.bitCount(ringBytes) == 1,
                "ringBytes must be a power of two of at least 1024: %d",
                ringBytes);
        FaroException.checkArgument(
                writeThreshold >= 0 && writeThreshold <= ringBytes,
                "writeThreshold must be in 0..ringBytes: writeThreshold=%d ringBytes=%d",
                writeThreshold,
                ringBytes);
        FaroException.checkArgument(
                readNotifyThreshold >= 8 && readNotifyThreshold <= ringBytes / 2,
                "readNotifyThreshold must be in 8..ringBytes/2: readNotifyThreshold=%d ringBytes=%d",
                readNotifyThreshold,
                ringBytes);
        FaroException.checkArgument(
                maxRowBytes >= 1 && maxRowBytes <= ringBytes / 4,
                "maxRowBytes must be in 1..ringBytes/4: maxRowBytes=%d ringBytes=%d",
                maxRowBytes,
                ringBytes);
    }

    /** The paper's settings (64 KB rings, 16 KB write threshold, READ after 16 KB consumed) for this shape. */
    public static MiddlewareConfig defaults(int processes, int workersPerProcess) {
        return new MiddlewareConfig(
                processes, workersPerProcess, DEFAULT_RING_BYTES, DEFAULT_WRITE_THRESHOLD, DEFAULT_RING_BYTES / 4, 256);
    }

    public MiddlewareConfig withRingBytes(int bytes) {
        return new MiddlewareConfig(
                processes,
                workersPerProcess,
                bytes,
                Math.min(writeThreshold, bytes),
                Math.min(readNotifyThreshold, bytes / 2),
                Math.min(maxRowBytes, bytes / 4));
    }

    public MiddlewareConfig withWriteThreshold(int bytes) {
        return new MiddlewareConfig(processes, workersPerProcess, ringBytes, bytes, readNotifyThreshold, maxRowBytes);
    }

    public MiddlewareConfig withReadNotifyThreshold(int bytes) {
        return new MiddlewareConfig(processes, workersPerProcess, ringBytes, writeThreshold, bytes, maxRowBytes);
    }

    /** All workers of the cluster: {@code processes * workersPerProcess}; global worker ids run 0 … this − 1. */
    public int workers() {
        return processes * workersPerProcess;
    }

    /** The process that runs a global worker id. */
    public int processOf(int worker) {
        return worker / workersPerProcess;
    }
}
