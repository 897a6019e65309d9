package dev.faro.bench.join;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The share of a core the calling thread got over a span, its CPU time over the wall time, or for a run on
 * {@code threads} threads the process's CPU time over {@code threads} x the wall time (JIT and GC threads included).
 * On a loaded host a rate per wall second understates the kernels by this factor; the rate per CPU second (the rate
 * over the share) is what compares with the thesis's per-core rates. Coordination code.
 */
final class CpuShare {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static final OperatingSystemMXBean PROCESS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** 0: the calling thread alone; else the process, over this many threads. */
    private final int threads;

    private final long cpuStart;
    private final long wallStart;

    private CpuShare(int threads, long cpuStart, long wallStart) {
        this.threads = threads;
        this.cpuStart = cpuStart;
        this.wallStart = wallStart;
    }

    /** Starts a span on the calling thread. */
    static CpuShare start() {
        return new CpuShare(0, THREADS.getCurrentThreadCpuTime(), System.nanoTime());
    }

    /** Starts a span of a run on {@code threads} threads: the calling thread's for one, the process's for more. */
    static CpuShare start(int threads) {
        return threads == 1 ? start() : new CpuShare(threads, PROCESS.getProcessCpuTime(), System.nanoTime());
    }

    /** The CPU time since the start over the wall time (per thread), in (0, 1]; NaN if unmeasurable. */
    double stop() {
        long cpu = (threads == 0 ? THREADS.getCurrentThreadCpuTime() : PROCESS.getProcessCpuTime()) - cpuStart;
        long wall = (System.nanoTime() - wallStart) * Math.max(1, threads);
        return cpu <= 0 || wall <= 0 ? Double.NaN : Math.min(1.0, cpu / (double) wall);
    }
}
