package dev.faro.fabric;

import java.util.concurrent.TimeUnit;

/**
 * Where the completions of the queue pairs attached to it appear. Polling is thread-safe; each completion is
 * delivered to exactly one poller. A completion queue must be sized for every request that can be outstanding on
 * the queue pairs that use it (their send plus receive depths); the provider checks this when a queue pair attaches.
 */
public interface CompletionQueue extends AutoCloseable {

    /**
     * Busy mode: moves up to {@code completions.length} ready completions into the array and returns how many; never
     * blocks. Allocation-free.
     */
    int poll(WorkCompletion[] completions);

    /** As {@link #poll(WorkCompletion[])}, taking at most {@code max} completions. */
    int poll(WorkCompletion[] completions, int max);

    /**
     * Event mode: waits until at least one completion is ready or the timeout passes, then polls like
     * {@link #poll(WorkCompletion[])}. Returns 0 on timeout. The wait spins briefly, then yields the CPU.
     *
     * @throws FaroException {@link FaroException.Category#CLOSED} if the queue is closed while waiting
     */
    int await(WorkCompletion[] completions, long timeout, TimeUnit unit);

    /** The number of completions the queue holds at most. */
    int capacity();

    /** Closes the queue. Queue pairs still attached to it must be closed first. Idempotent. */
    @Override
    void close();
}
