package dev.faro.fabric.net;

import dev.faro.fabric.spi.HeapCompletionQueue;

/**
 * A completion queue of the {@code net} fabric: the shared heap ring ({@link HeapCompletionQueue}), whose waiters the
 * node's progress thread wakes once per turn rather than once per completion (as a NIC moderates its interrupts, but
 * without a timer): the receive completions of every message one read placed cost the waiter one wake-up.
 *
 * <p>Data path: allocation-free.
 */
final class NetCompletionQueue extends HeapCompletionQueue {

    private final NetFabric fabric;

    /** The progress thread published in this turn and owes the waiters a wake-up. Progress thread only. */
    boolean wakeDeferred;

    NetCompletionQueue(NetFabric fabric, int id, int capacity) {
        super(fabric, id, capacity);
        this.fabric = fabric;
    }

    /** On the progress thread, the wake-up waits for the end of its turn ({@link ProgressAgent#deferWake}). */
    @Override
    protected boolean deferWake() {
        return fabric.deferWake(this);
    }
}
