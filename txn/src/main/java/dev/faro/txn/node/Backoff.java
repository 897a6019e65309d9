package dev.faro.txn.node;

import java.util.concurrent.locks.LockSupport;

/**
 * How the lock manager's threads wait for work or an answer: spin, then yield for a while, then park with pauses
 * growing to a bound. One instance per thread; {@link #reset} when the wait is over (work came), {@link #idle} after
 * each fruitless poll.
 *
 * <p>The yield phase is bounded in time, not in count, because a park costs far more than it asks for: Linux adds the
 * thread's timer slack (50 µs by default), so {@code parkNanos(1_000)} returns after 66–78 µs on the 2-core host (a
 * yield with nothing else to run returns in 0.6 µs). A waiter that parks after a few yields therefore pays some 70 µs
 * for any answer that is late by a microsecond, which is what made per-lock latency bimodal (median 1 µs, mean 6–16 µs,
 * and which mode a run saw changed between sittings). Yielding lets the thread it waits for run on the same core, as a
 * park would, but wakes within a scheduling round.
 *
 * <p>Data path: allocation-free.
 */
final class Backoff {

    private final int spins;
    private final long yieldNs;
    private final long maxParkNs;
    private int count;
    private long yieldUntilNs;

    /**
     * @param spins busy spins before the first yield
     * @param yieldNs how long to yield before parking ({@link Long#MAX_VALUE}: never park)
     * @param maxParkNs the longest single park
     */
    Backoff(int spins, long yieldNs, long maxParkNs) {
        if (spins < 0 || yieldNs < 0 || maxParkNs < 1) {
            throw new IllegalArgumentException(
                    "bad backoff: spins " + spins + ", yield " + yieldNs + " ns, park " + maxParkNs + " ns");
        }
        this.spins = spins;
        this.yieldNs = yieldNs;
        this.maxParkNs = maxParkNs;
    }

    /** The wait is over (work or an answer came): the next {@link #idle} spins again. */
    void reset() {
        count = 0;
    }

    /** Idles once after a fruitless poll. */
    void idle() {
        int n = count++;
        if (n < spins) {
            Thread.onSpinWait();
            return;
        }
        if (n == spins) {
            yieldUntilNs = yieldNs == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + yieldNs;
        }
        if (yieldUntilNs == Long.MAX_VALUE || System.nanoTime() - yieldUntilNs < 0) {
            Thread.yield();
            count = spins + 1; // stay in the yield phase without overflowing
            return;
        }
        count = Math.max(count, spins + 2);
        int parks = Math.min(count - spins - 2, 16);
        LockSupport.parkNanos(Math.min(maxParkNs, 1_000L << parks));
    }
}
