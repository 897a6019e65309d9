package dev.faro.shuffle.transport;

import java.lang.foreign.MemorySegment;

/**
 * One producing thread's buffers, one open buffer per transmission group: the caller encodes rows straight into
 * {@link #payload(int)} at {@link #length(int)}, records the new fill level, and calls {@link #send(int)} when the
 * next row does not fit. Thread-confined. Data path: allocation-free.
 */
public interface ExchangeSender {

    /**
     * The payload of {@code group}'s open buffer (its {@code byteSize()} is the buffer's capacity), acquiring a free
     * buffer first when the group has none; waits while the transport has no free buffer or credit.
     *
     * @throws dev.faro.fabric.FaroException {@code NETWORK} when the exchange failed (the first error, see the package
     *     documentation)
     */
    MemorySegment payload(int group);

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
