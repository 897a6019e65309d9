package dev.faro.zerosided.unit;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The consumer side of one zero-sided circular buffer ({@link ZeroSidedBufferDescriptor}) shared by several consuming
 * threads of a processing unit: each {@link #tryTake} claims the next item in ring order, and the threads give items
 * back in any order ({@link #release}). The tail word the switch reads moves only over the released prefix: slot
 * {@code tail} must be released before the tail passes it, so an item released early waits for the older ones, and
 * the switch never overwrites an item a thread still reads. This is how one consumer buffer serves all of a node's
 * receiving threads (an exchange's threads each hold an item while they decode it, and finish in any order), which a
 * single-thread {@link ZeroSidedBuffer} consumer cannot.
 *
 * <p>As everything in this package, nothing here starts a data movement: taking reads the head word the switch
 * WRITEs, releasing writes the tail word the switch READs.
 *
 * <p>Threads: any number. {@link #tryTake} is lock-free (a CAS on the claim counter); {@link #release} takes this
 * ring's monitor, once per item, so that tail stores stay monotonic. Data path: allocation-free.
 */
public final class SharedConsumerRing {

    /** {@link #tryTake} when no item is there yet. */
    public static final long NONE = ZeroSidedBuffer.NONE;

    /** {@link #tryTake} when no item is there and the stream has ended. */
    public static final long END_OF_STREAM = ZeroSidedBuffer.END_OF_STREAM;

    /** {@link #tryTake} when another thread claimed the item first: try again at once. */
    public static final long CONTENDED = -3;

    private static final VarHandle WORD =
            ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();

    private final MemorySegment segment;
    private final int capacity;
    private final int itemBytes;
    /** Items claimed by {@link #tryTake} so far (absolute). */
    private final AtomicLong claimed = new AtomicLong();
    /** Per slot: released and not yet passed by the tail; guarded by this. */
    private final boolean[] released;
    /** Items the tail has passed (absolute); guarded by this. */
    private long tail;

    /**
     * Formats {@code segment} as an empty buffer of {@code capacity} items of {@code itemBytes} (pointers zero). Call
     * before the switch starts a flow on it.
     */
    public SharedConsumerRing(MemorySegment segment, int capacity, int itemBytes) {
        long needed = ZeroSidedBufferDescriptor.lengthBytes(capacity, itemBytes);
        if (segment.byteSize() < needed) {
            throw new IllegalArgumentException(
                    "segment too small: byteSize=" + segment.byteSize() + " needed=" + needed);
        }
        this.segment = segment;
        this.capacity = capacity;
        this.itemBytes = itemBytes;
        this.released = new boolean[capacity];
        WORD.setRelease(segment, (long) ZeroSidedBufferDescriptor.TAIL_OFFSET, 0L);
        WORD.setRelease(segment, (long) ZeroSidedBufferDescriptor.HEAD_OFFSET, 0L);
    }

    public MemorySegment segment() {
        return segment;
    }

    public int capacity() {
        return capacity;
    }

    public int itemBytes() {
        return itemBytes;
    }

    /**
     * Claims the next item: its absolute position (its slot is {@link #slotOffset}), {@link #NONE} when none has
     * arrived, {@link #END_OF_STREAM} when none will, or {@link #CONTENDED} when another thread took it first.
     */
    public long tryTake() {
        long next = claimed.get();
        long word = (long) WORD.getAcquire(segment, (long) ZeroSidedBufferDescriptor.HEAD_OFFSET);
        if (next < ZeroSidedBufferDescriptor.count(word)) {
            return claimed.compareAndSet(next, next + 1) ? next : CONTENDED;
        }
        return ZeroSidedBufferDescriptor.ended(word) ? END_OF_STREAM : NONE;
    }

    /** The offset in {@link #segment()} of the item at absolute {@code position}. */
    public long slotOffset(long position) {
        return ZeroSidedBufferDescriptor.slotOffset(position, capacity, itemBytes);
    }

    /** The slot index, in [0, capacity), of the item at absolute {@code position}. */
    public int slot(long position) {
        return (int) (position % capacity);
    }

    /**
     * Gives back the item at {@code position} (from {@link #tryTake}); once every older item is released too, the tail
     * word moves past it (with release), and the switch may reuse its slot.
     */
    public synchronized void release(long position) {
        if (position < tail || position >= claimed.get()) {
            throw new IllegalArgumentException(
                    "position " + position + " is not taken: tail=" + tail + " claimed=" + claimed.get());
        }
        int slot = slot(position);
        if (released[slot]) {
            throw new IllegalArgumentException("position " + position + " released twice");
        }
        released[slot] = true;
        long moved = tail;
        while (moved < claimed.get() && released[slot(moved)]) {
            released[slot(moved)] = false;
            moved++;
        }
        if (moved != tail) {
            tail = moved;
            WORD.setRelease(segment, (long) ZeroSidedBufferDescriptor.TAIL_OFFSET, moved);
        }
    }

    /** Whether every item taken so far has been released and passed by the tail. */
    public synchronized boolean fullyReleased() {
        return tail == claimed.get();
    }

    /** Items the switch has delivered so far (the head word's count). */
    public long delivered() {
        return ZeroSidedBufferDescriptor.count(
                (long) WORD.getAcquire(segment, (long) ZeroSidedBufferDescriptor.HEAD_OFFSET));
    }
}
