package dev.faro.bench.zerosided;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The producer and consumer threads of one {@link TupleShuffle} run: starts them, keeps the first failure (the others
 * see {@link #failed()} and stop), and joins them. {@link #idle} is the back-off of a thread that found nothing to do,
 * with a watchdog: 30 s without progress anywhere is a failure, never a hang.
 *
 * <p>Coordination code; {@link #idle} and {@link #progress} are called on the data path and allocate nothing.
 */
final class ShuffleThreads {

    /** A thread's body. */
    interface Body {
        void run(int index) throws Exception;
    }

    private static final long STALL_NS = 30_000_000_000L;

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean failed;
    private volatile long lastProgressNs = System.nanoTime();

    /** Starts {@code count} threads named {@code name}-i running {@code body}(i). */
    void start(String name, int count, Body body) {
        for (int i = 0; i < count; i++) {
            int index = i;
            threads.add(Thread.ofPlatform().name(name + "-" + i).start(() -> {
                try {
                    body.run(index);
                } catch (Throwable t) {
                    if (failure.compareAndSet(null, t)) {
                        failed = true;
                    }
                }
            }));
        }
    }

    boolean failed() {
        return failed;
    }

    /** Notes that a thread moved a tuple (cheap: one volatile write per call; call it per batch or per back-off). */
    void progress() {
        lastProgressNs = System.nanoTime();
    }

    /**
     * Backs off after {@code idle} fruitless tries in a row and returns the next count: spin, then park 50 µs.
     *
     * @throws IllegalStateException when another thread failed or nothing moved for 30 s
     */
    int idle(int idle) {
        if (idle < 64) {
            Thread.onSpinWait();
        } else {
            if (failed) {
                throw new IllegalStateException("another thread of the shuffle failed");
            }
            if (System.nanoTime() - lastProgressNs > STALL_NS) {
                throw new IllegalStateException("the shuffle made no progress for 30 s");
            }
            LockSupport.parkNanos(50_000);
        }
        return idle + 1;
    }

    /** Joins every thread; rethrows the first failure. */
    void join() throws Exception {
        for (Thread thread : threads) {
            thread.join();
        }
        Throwable first = failure.get();
        if (first instanceof Exception e) {
            throw e;
        }
        if (first instanceof Error e) {
            throw e;
        }
    }
}
