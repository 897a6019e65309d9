package dev.faro.shuffle.endpoint;

/**
 * The SEND side of a communication endpoint (TODS19 §4.2). All methods are thread-safe: in the Single Endpoint
 * configuration every thread of the SHUFFLE operator calls them concurrently.
 */
public interface SendEndpoint extends AutoCloseable {

    /** This endpoint's unique id (appears as the source of every buffer it sends). */
    int id();

    /**
     * Returns a free registered buffer to fill, waiting while every buffer is in flight.
     *
     * @throws dev.faro.fabric.FaroException {@code NETWORK} if the transfer failed (a peer died, a timeout passed)
     */
    ShuffleBuffer acquire();

    /**
     * A free buffer if one is free now, else null; never waits for one (a caller that yields its thread instead of
     * waiting; it tries again when the transport says it may have one). The default waits ({@link #acquire}): for
     * endpoints outside the engine's exchanges. Data path: allocation-free.
     *
     * @throws dev.faro.fabric.FaroException {@code NETWORK} as {@link #acquire} does
     */
    default ShuffleBuffer tryAcquire() {
        return acquire();
    }

    /**
     * Whether {@link #putData} of {@code buffer} in {@code state} to {@code destinations} would find its flow-control credit (or remote buffer) now,
     * without waiting; never waits, claims nothing. Exact for a thread's own endpoint (ME); with a shared endpoint (SE)
     * another thread may take the credit first, and {@link #putData} then waits for the next as before. The default
     * (designs without credit) is true. Data path: allocation-free.
     */
    default boolean canPut(ShuffleBuffer buffer, int[] destinations, StreamState state) {
        return true;
    }

    /**
     * Sends {@code buffer} (its {@link ShuffleBuffer#payloadLength()} bytes) to every node in {@code destinations},
     * and gives the buffer back to the endpoint. {@link StreamState#DEPLETED} marks the last buffer this endpoint
     * sends to those destinations. Waits for flow-control credit where the design needs it.
     */
    void putData(ShuffleBuffer buffer, int[] destinations, StreamState state);

    /**
     * Pushes on what {@link #putData} left pending without waiting (a transport whose puts may not complete at once,
     * as TCP's when the socket takes only part of a frame); true when nothing is pending. The default (puts that
     * complete at once) is true. Data path: allocation-free.
     */
    default boolean tryFlush() {
        return true;
    }

    /** Waits until nothing {@link #putData} sent is pending in this endpoint (see {@link #tryFlush}). */
    default void flush() {}

    /**
     * Nanoseconds this endpoint's callers spent blocked in {@link #acquire()} waiting for a free buffer, so far
     * (approximate while threads run; 0 where a design does not count it). A resource counter of the experiments.
     */
    default long bufferWaitNanos() {
        return 0;
    }

    /** Nanoseconds callers spent blocked in {@link #putData} waiting for flow-control credit (as above). */
    default long creditWaitNanos() {
        return 0;
    }

    /**
     * Ends this exchange's stream as {@link #close} would (the design's close protocol: e.g. send/receive parity, or
     * every destination's FINAL credit) but keeps the endpoint's queue pairs, queues and registered memory, and resets
     * its per-stream state (credits, counts, end-of-stream) so that the next exchange of the same shape, between the
     * same endpoints, starts as on a fresh open. Returns false, changing nothing, when the endpoint cannot be reused
     * (it failed, was closed, or its design does not support reuse); the caller then closes it. Throws what
     * {@link #close} would when the close protocol fails (the caller closes it too). Single-threaded: every sending
     * thread is done.
     */
    default boolean recycle() {
        return false;
    }

    /**
     * Gives the stream up because its query failed (the peers give theirs up too): the next {@link #close} frees the
     * resources without the close protocol's waits, and {@link #recycle} refuses. The default does nothing (a design
     * whose close never waits for its peers). Any thread.
     */
    default void abandon() {}

    /**
     * Finishes the stream (the close protocol of the design: e.g. send/receive parity for RC Send/Receive) and frees
     * the endpoint's resources. Every destination must have received DEPLETED before.
     */
    @Override
    void close();
}
