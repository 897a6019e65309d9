package dev.faro.fabric;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A queue pair's posted receives: a ring the application fills ({@code postReceive}) and the provider's progress
 * thread consumes, oldest first, when a SEND or WRITE_WITH_IMMEDIATE arrives. Both sides take {@link #lock}, which is
 * uncontended but for the moments a receive is posted while one is consumed; flushing on ERROR takes it too, so no
 * receive is stranded. Each posted receive pins its region until whoever {@link #take}s it unpins it. For providers
 * whose progress thread places incoming messages (net, ucx).
 *
 * <p>Data path: allocation-free.
 *
 * @param <R> the provider's region type
 */
public final class PostedReceives<R extends AbstractMemoryRegion> {

    public final ReentrantLock lock = new ReentrantLock();
    private final long[] requestIds;
    private final AbstractMemoryRegion[] regions;
    private final long[] offsets;
    private final int[] lengths;
    private final int depth;

    // Guarded by lock.
    private long head;
    private long tail;

    /** Posted and not consumed; written under the lock, read without it (approximate for non-owners). */
    private volatile int count;

    public PostedReceives(int depth) {
        this.depth = depth;
        this.requestIds = new long[depth];
        this.regions = new AbstractMemoryRegion[depth];
        this.offsets = new long[depth];
        this.lengths = new int[depth];
    }

    /** Posted and not consumed; any thread, without the lock. */
    public int count() {
        return count;
    }

    /** Appends a receive whose region the caller pinned. Caller holds the lock and checked {@link #isFull}. */
    public void add(long requestId, R region, long offset, int length) {
        int slot = (int) (tail % depth);
        requestIds[slot] = requestId;
        regions[slot] = region;
        offsets[slot] = offset;
        lengths[slot] = length;
        tail++;
        count = (int) (tail - head);
    }

    /** Whether {@code depth} receives are posted. Caller holds the lock. */
    public boolean isFull() {
        return tail - head >= depth;
    }

    /** Takes the oldest receive into {@code claimed}; false if none. Caller holds the lock. */
    @SuppressWarnings("unchecked")
    public boolean take(Claimed<R> claimed) {
        if (head == tail) {
            return false;
        }
        int slot = (int) (head % depth);
        claimed.requestId = requestIds[slot];
        claimed.region = (R) regions[slot];
        claimed.offset = offsets[slot];
        claimed.length = lengths[slot];
        regions[slot] = null;
        head++;
        count = (int) (tail - head);
        return true;
    }

    /** A receive taken off the ring; its region stays pinned until the taker unpins it. Reused by its owner. */
    public static final class Claimed<R extends AbstractMemoryRegion> {
        public long requestId;
        public R region;
        public long offset;
        public int length;
    }
}
