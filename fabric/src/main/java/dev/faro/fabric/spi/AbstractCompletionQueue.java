package dev.faro.fabric.spi;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.FaroException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What every provider's {@link CompletionQueue} keeps the same way: its node, id and capacity, the budget queue pairs
 * attach to, and the closed flag with its once-only close. For providers (net, shm, ucx): a subclass holds the ring
 * and says what its close releases ({@link #onClose()}).
 *
 * <p>Threads: {@link #attach} and {@link #detach} are coordination code (any thread); {@link #isClosed()} is a
 * volatile read, cheap enough for the data path.
 */
public abstract class AbstractCompletionQueue implements CompletionQueue {

    private final AbstractFabric<?, ?> fabric;
    private final int id;
    private final int capacity;
    private final CompletionQueueBudget budget;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** A queue of {@code fabric} with {@code capacity} completions at most. */
    protected AbstractCompletionQueue(AbstractFabric<?, ?> fabric, int id, int capacity) {
        this.fabric = fabric;
        this.id = id;
        this.capacity = capacity;
        this.budget = new CompletionQueueBudget(id, capacity);
    }

    /** The queue's number on its node (in messages and files). */
    public final int id() {
        return id;
    }

    @Override
    public final int capacity() {
        return capacity;
    }

    /** Whether {@code node} created this queue. */
    public final boolean belongsTo(AbstractFabric<?, ?> node) {
        return fabric == node;
    }

    public final boolean isClosed() {
        return closed.get();
    }

    /** Reserves room for a queue pair's requests; refuses a queue pair the queue cannot hold, or a closed queue. */
    public final void attach(int slots, String role) {
        if (closed.get()) {
            throw FabricChecks.completionQueueClosed(id);
        }
        budget.attach(slots, role);
    }

    /** Gives back what {@link #attach} reserved, when the queue pair closes. */
    public final void detach(int slots) {
        budget.detach(slots);
    }

    /** Throws {@code CLOSED} if the queue is closed: the first thing a poll does. */
    protected final void checkNotClosed() {
        if (closed.get()) {
            throw FabricChecks.completionQueueClosed(id);
        }
    }

    /** The {@code QUEUE_FULL} exception an empty poll throws once completions were dropped for want of room. */
    protected final FaroException overrun() {
        return new FaroException(
                FaroException.Category.QUEUE_FULL,
                "completion queue " + id
                        + " overran: more completions arrived than its capacity " + capacity
                        + "; size it for every receive and send that can be outstanding");
    }

    /** Closes the queue once: marks it closed, runs {@link #onClose()}, and the node forgets it. Idempotent. */
    @Override
    public final void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        onClose();
        fabric.forget(this);
    }

    /** What the provider releases when the queue closes (wakes waiters, unmaps the ring); runs once. */
    protected abstract void onClose();
}
