package dev.faro.fabric.spi;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The life cycle a provider's memory region shares with the requests that move its bytes: registered until closed,
 * pinned by every request or receive in flight, and freed by whichever comes last, the close or the last unpin. For
 * providers that free memory a progress thread may still be writing (net, ucx); thread-safe, lock-free but for
 * {@link #markClosed}.
 *
 * <pre>
 *  registered: true until markClosed (read by the progress thread on every remote access)
 *  pins:       n &gt;= 0  registered or closing, n users        -1  freed (terminal)
 *  pin():      CAS n -&gt; n + 1 unless -1
 *  unpin():    n -&gt; n - 1; reaching 0 on a closed region frees it
 *  close:      markClosed, then freeIfUnpinned (CAS 0 -&gt; -1 frees now, otherwise the last unpin does)
 * </pre>
 */
public final class RegionPins {

    private final AtomicInteger pins = new AtomicInteger();
    private final Runnable free;
    private volatile boolean registered = true;

    /** {@code free} releases the memory; it runs exactly once, on the thread that drops the last use. */
    public RegionPins(Runnable free) {
        this.free = free;
    }

    public boolean isRegistered() {
        return registered;
    }

    /** Pins the memory; false if it is already freed. Any thread. */
    public boolean pin() {
        while (true) {
            int current = pins.get();
            if (current < 0) {
                return false;
            }
            if (pins.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /** Releases a pin; the last release of a closed region frees the memory. */
    public void unpin() {
        if (pins.decrementAndGet() == 0 && !registered) {
            freeIfUnpinned();
        }
    }

    /** Ends the registration; true for the one call that did (the caller then withdraws the region and frees it). */
    public synchronized boolean markClosed() {
        if (!registered) {
            return false;
        }
        registered = false;
        return true;
    }

    /** Frees the memory if nothing pins it; otherwise the last {@link #unpin} will. */
    public void freeIfUnpinned() {
        if (pins.compareAndSet(0, -1)) {
            free.run();
        }
    }

    /** Frees the memory now, whatever the pins: only when no thread can use it any more (the fabric closed). */
    public void forceFree() {
        registered = false;
        if (pins.getAndSet(-1) >= 0) {
            free.run();
        }
    }
}
