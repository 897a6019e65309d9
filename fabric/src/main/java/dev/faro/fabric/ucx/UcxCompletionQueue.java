package dev.faro.fabric.ucx;

import dev.faro.fabric.spi.HeapCompletionQueue;

/**
 * A completion queue of the {@code ucx} fabric: the shared heap ring ({@link HeapCompletionQueue}); every completion
 * wakes the waiters at once.
 *
 * <p>Data path: allocation-free.
 */
final class UcxCompletionQueue extends HeapCompletionQueue {

    UcxCompletionQueue(UcxFabric fabric, int id, int capacity) {
        super(fabric, id, capacity);
    }
}
