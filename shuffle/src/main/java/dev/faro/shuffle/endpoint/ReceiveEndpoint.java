package dev.faro.shuffle.endpoint;

/**
 * The RECEIVE side of a communication endpoint (TODS19 §4.2). All methods are thread-safe: in the Single Endpoint
 * configuration every thread of the RECEIVE operator calls them concurrently.
 */
public interface ReceiveEndpoint extends AutoCloseable {

    /** This endpoint's unique id. */
    int id();

    /**
     * Returns the next filled buffer, waiting until one arrives; returns null once every expected sender has
     * delivered DEPLETED and every buffer was handed out (end of stream; every later call returns null too).
     *
     * @throws dev.faro.fabric.FaroException {@code NETWORK} if the stream failed (a peer died, a message was lost,
     *     the design's timeout passed) — the query must restart
     */
    ShuffleBuffer getData();

    /**
     * What {@link #poll} returns when no buffer is there yet: a marker, never handed out as data (compare by
     * identity).
     */
    ShuffleBuffer NOT_YET = new ShuffleBuffer(-1, java.lang.foreign.MemorySegment.ofArray(new byte[64]));

    /**
     * {@link #getData()} without waiting: the next filled buffer if one is there now, {@link #NOT_YET} if not, null at
     * the end of the stream. For a caller that yields its thread instead of waiting. The default waits
     * ({@link #getData()}): for endpoints outside the engine's exchanges. Data path: allocation-free.
     *
     * @throws dev.faro.fabric.FaroException {@code NETWORK} as {@link #getData()} does
     */
    default ShuffleBuffer poll() {
        return getData();
    }

    /** Gives a buffer from {@link #getData()} back; the caller must not touch it afterwards. */
    void release(ShuffleBuffer buffer);

    /**
     * Nanoseconds callers spent blocked in {@link #getData()} waiting for data, so far (approximate while threads
     * run; 0 where a design does not count it). A resource counter of the experiments.
     */
    default long dataWaitNanos() {
        return 0;
    }

    /** Credit write-backs (RDMA WRITEs of the credit word) this endpoint posted so far; 0 for designs without. */
    default long creditWrites() {
        return 0;
    }

    /**
     * Ends this exchange's stream as {@link #close} would, keeping the endpoint's queue pairs, queues and registered
     * memory, and resets its per-stream state; see {@link SendEndpoint#recycle}. Only after a complete stream (every
     * buffer handed out and released); false otherwise, changing nothing.
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
     * Starts the next stream of a recycled endpoint: posts its receives and grants the first credits, as after a fresh
     * open. Every node must have recycled its side of the exchange before any node restarts (the caller agrees on that
     * through the peers), so that no write of the previous stream can reach a reset endpoint.
     */
    default void restart() {
        throw new UnsupportedOperationException(this + " cannot be reused");
    }

    @Override
    void close();
}
