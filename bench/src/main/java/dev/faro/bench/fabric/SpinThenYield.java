package dev.faro.bench.fabric;

/**
 * The idle strategy of the benchmark's polling loops: busy-spin for a short while, then yield the processor on every
 * further idle turn. Spinning keeps latency low on an idle machine; yielding lets the peer process run when both
 * share fewer cores than there are runnable threads (a 2-core machine running two workers and their JIT).
 *
 * <p>Data path: allocation-free, stateless.
 */
final class SpinThenYield {

    /** Idle turns spent spinning before the loop starts yielding. */
    static final int SPINS = 128;

    private SpinThenYield() {}

    /** Idles once after {@code idleTurns} fruitless turns (counted from 1). */
    static void idle(int idleTurns) {
        if (idleTurns <= SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
