package dev.faro.fabric.net;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A queue pair's posted receives: a ring the application fills ({@code postReceive}) and the progress thread consumes
 * when a SEND or WRITE_WITH_IMMEDIATE arrives. Both sides take {@link #lock}, which is uncontended but for the
 * moments a receive is posted while one is consumed; flushing on ERROR takes it too, so no receive is stranded.
 * Each posted receive pins its region until it completes.
 *
 * <p>Data path: allocation-free.
 */
final class ReceiveQueue {

    final ReentrantLock lock = new ReentrantLock();
    private final long[] requestIds;
    private final NetMemoryRegion[] regions;
    private final long[] offsets;
    private final int[] lengths;
    private final int depth;

    // Guarded by lock.
    private long head;
    private long tail;

    /** Posted and not consumed; written under the lock, read without it (approximate for non-owners). */
    private volatile int count;

    ReceiveQueue(int depth) {
        this.depth = depth;
        this.requestIds = new long[depth];
        this.regions = new NetMemoryRegion[depth];
        this.offsets = new long[depth];
        this.lengths = new int[depth];
    }

    int count() {
        return count;
    }

    /** Appends a receive whose region the caller pinned. Caller holds the lock and checked the depth. */
    void add(long requestId, NetMemoryRegion region, long offset, int length) {
        int slot = (int) (tail % depth);
        requestIds[slot] = requestId;
        regions[slot] = region;
        offsets[slot] = offset;
        lengths[slot] = length;
        tail++;
        count = (int) (tail - head);
    }

    boolean isFull() {
        return tail - head >= depth;
    }

    /** Takes the oldest receive into {@code claimed}; false if none. Caller holds the lock. */
    boolean take(ClaimedReceive claimed) {
        if (head == tail) {
            return false;
        }
        int slot = (int) (head % depth);
        claimed.requestId = requestIds[slot];
        claimed.region = regions[slot];
        claimed.offset = offsets[slot];
        claimed.length = lengths[slot];
        regions[slot] = null;
        head++;
        count = (int) (tail - head);
        return true;
    }

    /** A receive taken off the queue; its region stays pinned until the taker unpins it. */
    static final class ClaimedReceive {
        long requestId;
        NetMemoryRegion region;
        long offset;
        int length;
    }
}
