package dev.faro.shuffle.transport;

import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import java.util.concurrent.CompletionStage;

/**
 * One consuming thread's receive side: buffers as they arrive, read in place and then released. Thread-confined.
 * Data path: allocation-free.
 *
 * <p>{@link #poll} is {@link #take} without waiting, for a caller that yields its thread instead (the engine's
 * drivers): when it returns {@link #NOT_YET}, {@link #whenReady} gives a stage that completes once a buffer arrived,
 * the stream ended or the exchange failed, and the caller polls again. The defaults, for a transport that has no
 * non-blocking form, wait inside {@link #poll}.
 */
public interface ExchangeReceiver {

    /** What {@link #poll} returns when nothing has arrived yet (compare by identity; never data). */
    ShuffleBuffer NOT_YET = ReceiveEndpoint.NOT_YET;

    /**
     * The next received buffer ({@link ShuffleBuffer#payload()}, {@link ShuffleBuffer#payloadLength()} bytes of
     * whole rows), waiting until one arrives; null once every sender's stream has ended here (and from then on).
     *
     * @throws dev.faro.fabric.FaroException {@code NETWORK} when the exchange failed
     */
    ShuffleBuffer take();

    /** {@link #take} without waiting: the next buffer, {@link #NOT_YET}, or null once every stream has ended. */
    default ShuffleBuffer poll() {
        return take();
    }

    /** After {@link #poll} returned {@link #NOT_YET}: a stage completing when polling again finds something. */
    default CompletionStage<Void> whenReady() {
        return ExchangeSender.READY;
    }

    /** Gives a buffer from {@link #take()} or {@link #poll()} back to the transport; the caller must not touch it afterwards. */
    void release(ShuffleBuffer buffer);
}
