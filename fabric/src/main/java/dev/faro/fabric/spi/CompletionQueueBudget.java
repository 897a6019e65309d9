package dev.faro.fabric.spi;

import dev.faro.fabric.FaroException;

/**
 * How much of a completion queue the queue pairs attached to it may fill: every provider refuses a queue pair whose
 * send and receive depths no longer fit, with the same message. For providers; thread-safe.
 */
public final class CompletionQueueBudget {

    private final int queueId;
    private final int capacity;
    private long attachedSlots;

    public CompletionQueueBudget(int queueId, int capacity) {
        this.queueId = queueId;
        this.capacity = capacity;
    }

    /** Reserves {@code slots} completions for a queue pair's {@code role} (its send or receive queue). */
    public synchronized void attach(int slots, String role) {
        if (attachedSlots + slots > capacity) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    String.format(
                            "completion queue %d (capacity %d, %d already attached) cannot hold %d more completions for a"
                                    + " queue pair's %s; create it with a larger capacity",
                            queueId, capacity, attachedSlots, slots, role));
        }
        attachedSlots += slots;
    }

    /** Gives back what {@link #attach} reserved, when the queue pair closes. */
    public synchronized void detach(int slots) {
        attachedSlots -= slots;
    }
}
