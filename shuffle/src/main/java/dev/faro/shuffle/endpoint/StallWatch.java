package dev.faro.shuffle.endpoint;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A wait loop's idle strategy and bound: spin {@value #SPINS} times, then park {@value #PARK_NANOS} ns at a time; and
 * after {@code stallTimeout} without progress, report a stall. One instance per waiting call (a local variable), so
 * it is thread-confined.
 *
 * <p>No {@code Thread.yield()} phase: on a host with more busy threads than cores (a local cluster: every node's
 * SHUFFLE and RECEIVE threads on the same cores) a yielding thread is often picked again at once and keeps the core
 * from the thread that would produce the data or credit it waits for. Measured with {@code faro bench shuffle
 * throughput --nodes 2} (MESQ/SR, MEMQ/SR, SEMQ/RD, three alternating rounds on a loaded 2-core host): 100 spins, 100
 * yields, 20 us parks gave 0.11 / 0.15 / 0.12 GB/s per node; 20 spins and 5 us parks gave 0.30 / 0.31 / 0.31.
 *
 * <p>With a {@code blockedNanos} counter, {@link #stop()} adds the time from the call's first idle to now to it: the
 * time the calling thread was blocked (waiting for a buffer, credit or data), a resource counter of the experiments.
 */
public final class StallWatch {

    /** Busy polls before the first park: enough to catch a completion already on its way. */
    static final int SPINS = 20;
    /** One park; the kernel's timer slack makes the actual sleep longer (about 50 us more by default). */
    static final long PARK_NANOS = 5_000;

    private final long timeoutNs;
    private final AtomicLong blockedNanos;
    private long startNs;
    private long firstIdleNs;
    private int idles;

    public StallWatch(Duration stallTimeout) {
        this(stallTimeout, null);
    }

    /** A watch that counts its blocked time into {@code blockedNanos} on {@link #stop()} (null: not counted). */
    public StallWatch(Duration stallTimeout, AtomicLong blockedNanos) {
        this.timeoutNs = stallTimeout.toNanos();
        this.blockedNanos = blockedNanos;
    }

    /** Ends the waiting call: adds the time since its first idle, if it idled, to the blocked-time counter. */
    public void stop() {
        if (firstIdleNs != 0 && blockedNanos != null) {
            blockedNanos.addAndGet(System.nanoTime() - firstIdleNs);
            firstIdleNs = 0;
        }
    }

    /** Starts (or restarts after progress) the clock. */
    public void reset() {
        idles = 0;
        startNs = 0;
    }

    /** Idles once; returns false when the wait has made no progress for the stall timeout. */
    public boolean idle() {
        if (firstIdleNs == 0 && blockedNanos != null) {
            firstIdleNs = System.nanoTime();
        }
        if (idles < SPINS) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(PARK_NANOS);
        }
        idles++;
        if ((idles & 63) == 0) {
            long now = System.nanoTime();
            if (startNs == 0) {
                startNs = now;
            } else if (now - startNs > timeoutNs) {
                return false;
            }
        }
        return true;
    }
}
