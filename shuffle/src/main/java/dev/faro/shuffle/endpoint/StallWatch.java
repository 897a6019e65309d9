package dev.faro.shuffle.endpoint;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A wait loop's idle strategy and bound: spin, then yield, then park briefly; and after {@code stallTimeout} without
 * progress, report a stall. One instance per waiting call (a local variable), so it is thread-confined.
 *
 * <p>With a {@code blockedNanos} counter, {@link #stop()} adds the time from the call's first idle to now to it: the
 * time the calling thread was blocked (waiting for a buffer, credit or data), a resource counter of the experiments.
 */
public final class StallWatch {

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
        if (idles < 100) {
            Thread.onSpinWait();
        } else if (idles < 200) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(20_000);
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
