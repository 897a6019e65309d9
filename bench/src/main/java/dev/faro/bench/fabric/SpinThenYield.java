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

    /** How long one event-mode wait lasts, for loops that wait for completions rather than yield (see below). */
    static final long AWAIT_MILLIS = 1;

    /**
     * Whether the workers wait for completions in event mode ({@code CompletionQueue.await}) once spinning found
     * nothing, instead of yielding: on providers whose completions come from a progress thread of the same process
     * ({@code net}, where that thread plays the NIC; {@code ucx}, whose progress thread drives UCX), a polling thread would take the CPU that thread needs on small
     * machines; on {@code shm} the poster's own thread moves the bytes, and polling keeps its latency low.
     */
    static boolean awaitsCompletions(String provider) {
        return provider.equals("net") || provider.equals("ucx");
    }

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
