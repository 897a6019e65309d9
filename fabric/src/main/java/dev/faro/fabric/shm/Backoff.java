package dev.faro.fabric.shm;

import java.util.concurrent.locks.LockSupport;

/**
 * The idle strategy of waits on this fabric: spin, then yield, then park with growing pauses up to 50 µs. Processes
 * share no wake-up primitive, so a waiter re-checks at most every 50 µs; that bounds event-mode latency.
 */
final class Backoff {

    private static final int SPINS = 64;
    private static final int YIELDS = 64;
    private static final long MAX_PARK_NS = 50_000;

    private Backoff() {}

    /** Idles once after {@code count} fruitless checks and returns the next count. */
    static int idle(int count) {
        if (count < SPINS) {
            Thread.onSpinWait();
        } else if (count < SPINS + YIELDS) {
            Thread.yield();
        } else {
            int shift = Math.min(count - SPINS - YIELDS, 16);
            LockSupport.parkNanos(Math.min(MAX_PARK_NS, 1000L << shift));
        }
        return count + 1;
    }
}
