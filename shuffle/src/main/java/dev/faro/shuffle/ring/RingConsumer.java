package dev.faro.shuffle.ring;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The local-consumer side of one ring ({@link RingDescriptor}) in this node's registered memory: polls the head
 * slot with acquire, takes the entry with a CAS on the consumer index, and clears the slot's {@code sequence}.
 *
 * <p>Thread-safe: several threads may poll one ring (SE endpoints); the CAS on the consumer index hands each entry
 * to exactly one of them. A thread reads the entry before that CAS; a slot cannot be rewritten until its entry has
 * been taken (the user's flow control bounds unconsumed entries by the capacity), and a successful CAS proves that
 * the entry was still untaken, so the read was of that entry. The slot's {@code sequence} is then cleared with a
 * CAS from the taken entry's value to zero: if this thread was descheduled for a whole lap and the producer has
 * already reused the slot, the clear fails and leaves the newer entry alone.
 *
 * <p>Data path: allocation-free.
 */
public final class RingConsumer {

    private final MemorySegment ring;
    private final int capacity;
    /** The next index to take; written by consuming threads (CAS). */
    private final PaddedCounter consumerIndex = new PaddedCounter();

    /**
     * @param ring this ring's slots only: {@code capacity * SLOT_LENGTH} bytes of registered memory, 8-aligned,
     *     zeroed (a fresh registration is)
     */
    public RingConsumer(MemorySegment ring, int capacity) {
        RingDescriptor.checkCapacity(capacity);
        if (ring.byteSize() != (long) capacity * RingDescriptor.SLOT_LENGTH || (ring.address() & 7) != 0) {
            throw new IllegalArgumentException("ring must be " + capacity + " slots of " + RingDescriptor.SLOT_LENGTH
                    + " B, 8-aligned: byteSize=" + ring.byteSize() + ", address=" + ring.address());
        }
        this.ring = ring;
        this.capacity = capacity;
    }

    /**
     * Takes the entry at the head: returns it encoded (decode with {@link RingDescriptor#bufferIndex} and
     * {@link RingDescriptor#lengthBytes}), or {@link RingDescriptor#EMPTY} if the head slot has no entry yet.
     */
    public long poll() {
        while (true) {
            long index = consumerIndex.get();
            long slot = RingDescriptor.slotOffset(index, capacity);
            long sequence = (long) RingDescriptor.LONG.getAcquire(ring, slot + RingDescriptor.SEQUENCE_OFFSET);
            if (sequence != index + 1) {
                if (index != consumerIndex.get()) {
                    continue; // another consumer moved on meanwhile: look at the new head
                }
                return RingDescriptor.EMPTY;
            }
            int bufferIndex = ring.get(ValueLayout.JAVA_INT, slot + RingDescriptor.BUFFER_INDEX_OFFSET);
            int lengthBytes = ring.get(ValueLayout.JAVA_INT, slot + RingDescriptor.LENGTH_OFFSET);
            if (consumerIndex.compareAndSet(index, index + 1)) {
                RingDescriptor.LONG.compareAndSet(ring, slot + RingDescriptor.SEQUENCE_OFFSET, sequence, 0L);
                return RingDescriptor.entry(bufferIndex, lengthBytes);
            }
        }
    }

    /** Whether the head slot holds an entry (approximate while other threads consume). */
    public boolean hasEntry() {
        long index = consumerIndex.get();
        long slot = RingDescriptor.slotOffset(index, capacity);
        return (long) RingDescriptor.LONG.getAcquire(ring, slot + RingDescriptor.SEQUENCE_OFFSET) == index + 1;
    }

    /** Entries taken so far (exact once consuming threads are quiet). */
    public long consumed() {
        return consumerIndex.get();
    }

    public int capacity() {
        return capacity;
    }

    @Override
    public String toString() {
        return "RingConsumer[capacity=" + capacity + ", consumed=" + consumed() + "]";
    }
}
