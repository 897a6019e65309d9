package dev.faro.bench.join;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The share of a core the calling thread got over a span: its CPU time over the wall time. On a loaded host a
 * one-thread micro-benchmark's rate per wall second understates the kernel by this factor; the rate per CPU second
 * (the rate over the share) is what compares with the thesis's per-core rates. Coordination code.
 */
final class CpuShare {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long cpuStart;
    private final long wallStart;

    private CpuShare(long cpuStart, long wallStart) {
        this.cpuStart = cpuStart;
        this.wallStart = wallStart;
    }

    /** Starts a span on the calling thread. */
    static CpuShare start() {
        return new CpuShare(THREADS.getCurrentThreadCpuTime(), System.nanoTime());
    }

    /** The calling thread's CPU time since {@link #start} over the wall time, in (0, 1]; NaN if unmeasurable. */
    double stop() {
        long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
        long wall = System.nanoTime() - wallStart;
        return cpu <= 0 || wall <= 0 ? Double.NaN : Math.min(1.0, cpu / (double) wall);
    }
}
