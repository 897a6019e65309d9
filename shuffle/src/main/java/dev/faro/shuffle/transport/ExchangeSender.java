package dev.faro.shuffle.transport;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One producing thread's buffers, one open buffer per transmission group: the caller encodes rows straight into
 * {@link #payload(int)} at {@link #length(int)}, records the new fill level, and calls {@link #send(int)} when the
 * next row does not fit. Thread-confined. Data path: allocation-free.
 *
 * <p>Each waiting call has a non-blocking form for a caller that yields its thread instead of waiting (the engine's
 * drivers): {@link #tryPayload}, {@link #trySend}, {@link #tryFinish} do what they can now and say whether they did;
 * when one did not, {@link #whenReady} gives a stage that completes once the same call can proceed (or the exchange
 * failed), and the caller makes that call again. A sender is used in one form or the other: after a try that did not
 * proceed, the caller calls {@link #whenReady} next and nothing else until its stage completes. The defaults, for a
 * transport that has no non-blocking form, wait inside the try and are always ready.
 */
public interface ExchangeSender {

    /** A stage that is already complete: ready. */
    CompletionStage<Void> READY = CompletableFuture.completedStage(null);

    /**
     * The payload of {@code group}'s open buffer (its {@code byteSize()} is the buffer's capacity), acquiring a free
     * buffer first when the group has none; waits while the transport has no free buffer or credit.
     *
     * @throws dev.faro.fabric.FaroException {@code NETWORK} when the exchange failed (the first error, see the package
     *     documentation)
     */
    MemorySegment payload(int group);

    /**
     * {@link #payload} without waiting: the payload of {@code group}'s open buffer, acquiring one if one is free now;
     * null when none is (then {@link #whenReady}).
     */
    default MemorySegment tryPayload(int group) {
        return payload(group);
    }

    /**
     * {@link #send} without waiting: sends {@code group}'s open buffer (true, also when none is open) if the transport
     * can take it now; false, the buffer staying open and filled, when it cannot (then {@link #whenReady}).
     */
    default boolean trySend(int group) {
        send(group);
        return true;
    }

    /** {@link #finish} without waiting: true once this thread's stream has ended; false: {@link #whenReady}. */
    default boolean tryFinish() {
        finish();
        return true;
    }

    /**
     * After a try that did not proceed: a stage that completes once that call can proceed, or the exchange failed (the
     * call then throws the first error). Allocates one stage per wait.
     */
    default CompletionStage<Void> whenReady() {
        return READY;
    }

    /** Bytes filled of {@code group}'s open buffer (0 when none is open). */
    int length(int group);

    /** Records that {@code group}'s open buffer is filled up to {@code bytes}. */
    void length(int group, int bytes);

    /** Sends {@code group}'s open buffer (if any) to every member of the group; waits for credit where needed. */
    void send(int group);

    /**
     * Sends every open buffer and ends this thread's stream: once every sender of every node has finished, every
     * receiver reaches its end of stream. Idempotent.
     */
    void finish();
}
