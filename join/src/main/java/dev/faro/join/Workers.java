package dev.faro.join;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one phase's body on {@code threads} platform threads and waits for them; the first failure is rethrown
 * (later ones suppressed). Returns the CPU time the bodies took, summed over the threads (each thread's own
 * {@link ThreadMXBean#getCurrentThreadCpuTime} around its body), so that a phase's cost can be read beside its wall
 * time on a loaded host. Coordination code.
 */
public final class Workers {

    /** One thread's part of a phase. */
    @FunctionalInterface
    public interface Body {
        void run(int thread) throws Exception;
    }

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private Workers() {}

    /**
     * Runs {@code body} on {@code threads} threads (on the calling thread for one) and returns the CPU nanoseconds
     * the bodies took, summed over the threads (0 where the JVM cannot measure thread CPU time).
     */
    public static long run(String name, int threads, Body body) {
        if (threads == 1) {
            long cpuStart = cpuNanos();
            try {
                body.run(0);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return cpuNanos() - cpuStart;
        }
        AtomicLong cpu = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int thread = t;
            workers[t] = Thread.ofPlatform().name(name + "-" + t).unstarted(() -> {
                long cpuStart = cpuNanos();
                try {
                    body.run(thread);
                } catch (Throwable e) {
                    if (!failure.compareAndSet(null, e)) {
                        failure.get().addSuppressed(e);
                    }
                }
                cpu.addAndGet(cpuNanos() - cpuStart);
            });
            workers[t].start();
        }
        boolean interrupted = false;
        for (Thread worker : workers) {
            while (true) {
                try {
                    worker.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the workers end by their own waits' cancellation checks
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable first = failure.get();
        if (first instanceof RuntimeException e) {
            throw e;
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw new IllegalStateException(first);
        }
        return cpu.get();
    }

    /** The calling thread's CPU time, in nanoseconds (0 where the JVM cannot measure it). */
    public static long cpuNanos() {
        long nanos = CPU.getCurrentThreadCpuTime();
        return nanos < 0 ? 0 : nanos;
    }
}
