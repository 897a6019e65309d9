package dev.faro.shuffle.transport;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The count of received buffers a channel's receivers hold, and its high-water mark: what
 * {@link ExchangeChannel#buffersHeldHighWater} reports. A channel calls {@link #hold} when a receiver takes a buffer
 * and {@link #release} when it gives one back. Thread-safe: shared atomics, touched once per buffer.
 */
public final class HeldBuffers {

    private final AtomicInteger held = new AtomicInteger();
    private final AtomicInteger highWater = new AtomicInteger();

    /** One more buffer is held; raises the high-water mark when the count passes it. */
    public void hold() {
        int now = held.incrementAndGet();
        int high;
        while (now > (high = highWater.get()) && !highWater.compareAndSet(high, now)) {
            Thread.onSpinWait();
        }
    }

    /** One held buffer was given back. */
    public void release() {
        held.decrementAndGet();
    }

    /** The most buffers held at once so far. */
    public int highWater() {
        return highWater.get();
    }
}
