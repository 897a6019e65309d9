package dev.faro.shuffle.endpoint;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A wait loop's idle strategy and bound: spin, then yield, then park briefly; and after {@code stallTimeout} without
 * progress, report a stall. One instance per waiting call (a local variable), so it is thread-confined.
 */
public final class StallWatch {

    private final long timeoutNs;
    private long startNs;
    private int idles;

    public StallWatch(Duration stallTimeout) {
        this.timeoutNs = stallTimeout.toNanos();
    }

    /** Starts (or restarts after progress) the clock. */
    public void reset() {
        idles = 0;
        startNs = 0;
    }

    /** Idles once; returns false when the wait has made no progress for the stall timeout. */
    public boolean idle() {
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
