package dev.faro.shuffle.transport;

import dev.faro.shuffle.endpoint.ShuffleBuffer;

/**
 * One consuming thread's receive side: buffers as they arrive, read in place and then released. Thread-confined.
 * Data path: allocation-free.
 */
public interface ExchangeReceiver {

    /**
     * The next received buffer ({@link ShuffleBuffer#payload()}, {@link ShuffleBuffer#payloadLength()} bytes of
     * whole rows), waiting until one arrives; null once every sender's stream has ended here (and from then on).
     *
     * @throws dev.faro.fabric.FaroException {@code NETWORK} when the exchange failed
     */
    ShuffleBuffer take();

    /** Gives a buffer from {@link #take()} back to the transport; the caller must not touch it afterwards. */
    void release(ShuffleBuffer buffer);
}
