package dev.faro.middleware.exchange;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Makes one middleware worker usable by several engine threads: a {@link dev.faro.middleware.MiddlewareWorker} is
 * confined to one thread at a time, but at a node the producing and consuming pipelines of every open exchange use
 * worker {@code t} from their own thread {@code t}. Held only for one non-blocking call (append a buffer, poll a
 * record, service the rings), never while waiting. Spins, then parks 1 µs at a time; no allocation (a contended
 * {@code ReentrantLock} would queue a node per waiter).
 *
 * <p>Data path: allocation-free.
 */
final class WorkerLock {

    private static final VarHandle HELD;

    static {
        try {
            HELD = MethodHandles.lookup().findVarHandle(WorkerLock.class, "held", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int SPINS = 64;

    /** 1 while a thread holds the lock; set by compare-and-set, cleared with release by the holder. */
    @SuppressWarnings("unused")
    private int held;

    void lock() {
        int spins = 0;
        while (!HELD.compareAndSet(this, 0, 1)) {
            if (spins++ < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(1_000);
            }
        }
    }

    void unlock() {
        HELD.setRelease(this, 0);
    }
}
