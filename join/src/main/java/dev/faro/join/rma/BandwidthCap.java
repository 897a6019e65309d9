package dev.faro.join.rma;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A software cap on a rank's injection bandwidth, for the compute- versus network-bound experiments (digest §10.2:
 * a token-bucket cap in place of a slower NIC): puts still move at the fabric's speed, but each one counts as
 * complete only when a link of {@code bytesPerSecond}, shared by all the rank's lanes and serving puts one after
 * another in posting order, would have finished sending it. So a thread that waits for a buffer's put waits as long
 * as on the slower network, while it can keep partitioning in the meantime, exactly as with an asynchronous NIC.
 *
 * <p>Thread-safe: the link's next free time is one CAS-updated word. Allocation-free.
 */
final class BandwidthCap {

    private final double nanosPerByte;
    /** When the emulated link is next free, in {@link System#nanoTime()} units. */
    private final AtomicLong freeAtNanos = new AtomicLong(System.nanoTime());

    BandwidthCap(long bytesPerSecond) {
        this.nanosPerByte = 1e9 / bytesPerSecond;
    }

    /** Books {@code bytes} on the link and returns when their transfer ends. */
    long reserve(int bytes) {
        long duration = (long) (bytes * nanosPerByte);
        while (true) {
            long now = System.nanoTime();
            long free = freeAtNanos.get();
            long start = free - now > 0 ? free : now;
            long end = start + duration;
            if (freeAtNanos.compareAndSet(free, end)) {
                return end;
            }
        }
    }
}
