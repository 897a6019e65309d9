package dev.faro.fabric.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A queue pair's posted receives: a ring the application fills ({@code postReceive}) and the provider's progress
 * thread consumes, oldest first, when a SEND or WRITE_WITH_IMMEDIATE arrives. For providers whose progress thread
 * places incoming messages (net, ucx).
 *
 * <pre>
 *  slot i (i = sequence % depth), parallel arrays: requestId | region | offset | length
 *  tail: the next sequence to add; posting threads, under {@link #lock}: plain slot stores, then tail with release
 *  head: the next sequence to take; any taker, by compare-and-set, after reading the slot (tail read with acquire)
 * </pre>
 * Posting threads serialize on {@link #lock}; so do the provider's paths that must not race a post (flushing on ERROR:
 * a receive posted while the queue pair enters ERROR is either flushed or sees ERROR). {@link #take} needs no lock: a
 * progress thread that plays the NIC must never wait for an application thread, and a posting thread descheduled
 * while it holds the lock (a 2-core host running four busy threads) would stall it for a whole time slice. A taker
 * reads the slot before it claims the sequence, and a posting thread reuses slot {@code i} only after it saw head
 * pass {@code i}, so a claimed slot was read whole; a taker that loses the race to another (a queue pair closed while
 * its progress thread takes) retries. Each posted receive pins its region until whoever took it unpins it; a taken
 * slot keeps its region reference until the slot is reused (stale, never read).
 *
 * <p>Data path: allocation-free, {@link #take} lock-free.
 *
 * @param <R> the provider's region type
 */
public final class PostedReceives<R extends AbstractMemoryRegion> {

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(PostedReceives.class, "head", long.class);
            TAIL = lookup.findVarHandle(PostedReceives.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Serializes posting threads (and the provider's flush on ERROR); {@link #take} does not need it. */
    public final ReentrantLock lock = new ReentrantLock();

    private final long[] requestIds;
    private final AbstractMemoryRegion[] regions;
    private final long[] offsets;
    private final int[] lengths;
    private final int depth;

    /** The next sequence to take; advanced by takers with compare-and-set. */
    @SuppressWarnings("unused") // accessed through HEAD
    private volatile long head;

    /** The next sequence to add; written under {@link #lock} with release. */
    @SuppressWarnings("unused") // accessed through TAIL
    private volatile long tail;

    public PostedReceives(int depth) {
        this.depth = depth;
        this.requestIds = new long[depth];
        this.regions = new AbstractMemoryRegion[depth];
        this.offsets = new long[depth];
        this.lengths = new int[depth];
    }

    /** Posted and not consumed; any thread, without the lock (approximate while others post or take). */
    public int count() {
        long taken = (long) HEAD.getAcquire(this);
        return (int) Math.max(0, (long) TAIL.getAcquire(this) - taken);
    }

    /** Appends a receive whose region the caller pinned. Caller holds the lock and checked {@link #isFull}. */
    public void add(long requestId, R region, long offset, int length) {
        long sequence = (long) TAIL.get(this);
        int slot = (int) (sequence % depth);
        requestIds[slot] = requestId;
        regions[slot] = region;
        offsets[slot] = offset;
        lengths[slot] = length;
        TAIL.setRelease(this, sequence + 1);
    }

    /** Whether {@code depth} receives are posted. Caller holds the lock. */
    public boolean isFull() {
        return (long) TAIL.get(this) - (long) HEAD.getAcquire(this) >= depth;
    }

    /** Takes the oldest receive into {@code claimed}; false if none. Any thread, with or without the lock. */
    @SuppressWarnings("unchecked")
    public boolean take(Claimed<R> claimed) {
        while (true) {
            long sequence = (long) HEAD.getAcquire(this);
            if (sequence == (long) TAIL.getAcquire(this)) {
                return false;
            }
            int slot = (int) (sequence % depth);
            long requestId = requestIds[slot];
            AbstractMemoryRegion region = regions[slot];
            long offset = offsets[slot];
            int length = lengths[slot];
            if (HEAD.compareAndSet(this, sequence, sequence + 1)) {
                claimed.requestId = requestId;
                claimed.region = (R) region;
                claimed.offset = offset;
                claimed.length = length;
                return true;
            }
        }
    }

    /** A receive taken off the ring; its region stays pinned until the taker unpins it. Reused by its owner. */
    public static final class Claimed<R extends AbstractMemoryRegion> {
        public long requestId;
        public R region;
        public long offset;
        public int length;
    }
}
