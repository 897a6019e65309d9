package dev.faro.zerosided.unit;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A processing unit's view of one zero-sided circular buffer (layout: {@link ZeroSidedBufferDescriptor}): a producer
 * pushes fixed-size items into it, or a consumer pops them, with plain local memory operations. The switch moves the
 * items; <b>nothing here starts a data movement</b>. The only outward action is the optional {@link Doorbell}, which
 * reports a pointer. Time spent ringing it is counted ({@link #communicationNanos()}), so a run can show that its
 * producer and consumer threads spent none on communication.
 *
 * <p>One thread per buffer side (the producer of a producer buffer, the consumer of a consumer buffer). Data path:
 * allocation-free.
 */
public final class ZeroSidedBuffer {

    /** {@link #claimSlot()} when the buffer is full; {@link #nextSlot()} when it is empty. */
    public static final long NONE = -1;

    /** {@link #nextSlot()} when the buffer is empty and the producers have ended the stream. */
    public static final long END_OF_STREAM = -2;

    private static final VarHandle WORD =
            ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();

    private final MemorySegment segment;
    private final int capacity;
    private final int itemBytes;
    private final Doorbell doorbell;

    /** The producer's head or the consumer's tail: this side's own pointer, cached. */
    private long own;

    /** The other side's pointer as last read (approximate: refreshed when it seems to block). */
    private long cachedOther;

    private long communicationNanos;

    private ZeroSidedBuffer(MemorySegment segment, int capacity, int itemBytes, Doorbell doorbell) {
        long needed = ZeroSidedBufferDescriptor.lengthBytes(capacity, itemBytes);
        if (segment.byteSize() < needed) {
            throw new IllegalArgumentException(
                    "segment too small: byteSize=" + segment.byteSize() + " needed=" + needed);
        }
        this.segment = segment;
        this.capacity = capacity;
        this.itemBytes = itemBytes;
        this.doorbell = doorbell;
    }

    /**
     * Formats {@code segment} as an empty buffer (pointers zero) and returns the producer's view. Call before the
     * switch is told about it.
     *
     * @param doorbell rung after each push (null: the switch polls)
     */
    public static ZeroSidedBuffer producer(MemorySegment segment, int capacity, int itemBytes, Doorbell doorbell) {
        ZeroSidedBuffer buffer = new ZeroSidedBuffer(segment, capacity, itemBytes, doorbell);
        buffer.reset();
        return buffer;
    }

    /** Formats {@code segment} as an empty buffer and returns the consumer's view; see {@link #producer}. */
    public static ZeroSidedBuffer consumer(MemorySegment segment, int capacity, int itemBytes, Doorbell doorbell) {
        ZeroSidedBuffer buffer = new ZeroSidedBuffer(segment, capacity, itemBytes, doorbell);
        buffer.reset();
        return buffer;
    }

    private void reset() {
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

    // ---- producer side

    /**
     * The offset in {@link #segment()} of the slot to fill next, or {@link #NONE} when the buffer is full (the switch
     * has not freed a slot yet). Producer thread.
     */
    public long claimSlot() {
        if (own - cachedOther == capacity) {
            cachedOther = (long) WORD.getAcquire(segment, (long) ZeroSidedBufferDescriptor.TAIL_OFFSET);
            if (own - cachedOther == capacity) {
                return NONE;
            }
        }
        return ZeroSidedBufferDescriptor.slotOffset(own, capacity, itemBytes);
    }

    /** Publishes the slot {@link #claimSlot()} returned: head + 1, with release. Producer thread. */
    public void push() {
        own++;
        WORD.setRelease(segment, (long) ZeroSidedBufferDescriptor.HEAD_OFFSET, own);
        ring(ZeroSidedBufferDescriptor.HEAD_OFFSET, own);
    }

    /**
     * Copies one item from {@code source} at {@code offset} into the buffer and pushes it.
     *
     * @return false when the buffer is full (nothing copied)
     */
    public boolean offer(MemorySegment source, long offset) {
        long slot = claimSlot();
        if (slot == NONE) {
            return false;
        }
        MemorySegment.copy(source, offset, segment, slot, itemBytes);
        push();
        return true;
    }

    /** Ends the stream: no item follows the ones pushed so far. Producer thread, once. */
    public void finish() {
        long word = own | ZeroSidedBufferDescriptor.END_OF_STREAM_BIT;
        WORD.setRelease(segment, (long) ZeroSidedBufferDescriptor.HEAD_OFFSET, word);
        ring(ZeroSidedBufferDescriptor.HEAD_OFFSET, word);
    }

    /** Items pushed and not yet freed by the switch (approximate). Producer thread. */
    public long unsynchronizedOutstanding() {
        return own - (long) WORD.getAcquire(segment, (long) ZeroSidedBufferDescriptor.TAIL_OFFSET);
    }

    // ---- consumer side

    /**
     * The offset in {@link #segment()} of the next item to read, {@link #NONE} when there is none yet, or
     * {@link #END_OF_STREAM} when there is none and none will come. Consumer thread.
     */
    public long nextSlot() {
        if (cachedOther == own) {
            long word = (long) WORD.getAcquire(segment, (long) ZeroSidedBufferDescriptor.HEAD_OFFSET);
            cachedOther = ZeroSidedBufferDescriptor.count(word);
            if (cachedOther == own) {
                return ZeroSidedBufferDescriptor.ended(word) ? END_OF_STREAM : NONE;
            }
        }
        return ZeroSidedBufferDescriptor.slotOffset(own, capacity, itemBytes);
    }

    /** Frees the slot {@link #nextSlot()} returned: tail + 1, with release. Consumer thread. */
    public void pop() {
        own++;
        WORD.setRelease(segment, (long) ZeroSidedBufferDescriptor.TAIL_OFFSET, own);
        ring(ZeroSidedBufferDescriptor.TAIL_OFFSET, own);
    }

    /** Items this side has pushed (producer) or popped (consumer). */
    public long position() {
        return own;
    }

    /** Nanoseconds this side's thread spent ringing the doorbell: its only communication; 0 when polled. */
    public long communicationNanos() {
        return communicationNanos;
    }

    private void ring(long wordOffset, long value) {
        if (doorbell != null) {
            long startNs = System.nanoTime();
            doorbell.ring(wordOffset, value);
            communicationNanos += Math.max(1, System.nanoTime() - startNs);
        }
    }
}
