package dev.faro.shuffle.ring;

import dev.faro.fabric.Opcode;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The remote-producer side of one ring ({@link RingDescriptor}): claims the next absolute index and prepares the one
 * RDMA WRITE that fills its slot, {@code sequence} last. The caller posts the prepared request on the queue pair
 * connected to the ring's owner, exactly once.
 *
 * <p>Thread-safe: several threads may produce into one ring; each claims its index with an atomic increment, and
 * the consumer takes entries in index order whatever order the WRITEs land in. The caller's flow control must keep
 * the number of unconsumed entries within the ring's capacity (see {@link RingDescriptor}).
 *
 * <p>Data path: allocation-free.
 */
public final class RingProducer {

    private final RemoteKey regionKey;
    private final long ringOffset;
    private final int capacity;
    /** The next index to claim; written by every producing thread (atomic increment). */
    private final PaddedCounter producerIndex = new PaddedCounter();

    /**
     * @param regionKey the key of the ring owner's region
     * @param ringOffset where this ring starts in that region ({@link RingDescriptor#ringOffset})
     * @param capacity the ring's slots, as its owner allocated them
     */
    public RingProducer(RemoteKey regionKey, long ringOffset, int capacity) {
        this.regionKey = Objects.requireNonNull(regionKey, "regionKey is null");
        this.capacity = RingDescriptor.checkCapacity(capacity);
        if (ringOffset < 0 || ringOffset % RingDescriptor.RING_ALIGNMENT != 0) {
            throw new IllegalArgumentException("ringOffset must be a non-negative multiple of "
                    + RingDescriptor.RING_ALIGNMENT + ": ringOffset=" + ringOffset);
        }
        this.ringOffset = ringOffset;
    }

    /**
     * Claims the next index and prepares {@code request} as an inline WRITE of its slot, staged in {@code staging}
     * (exactly {@link RingDescriptor#SLOT_LENGTH} bytes, owned by the calling thread until the post returns).
     * Returns the claimed index.
     */
    public long prepare(WorkRequest request, MemorySegment staging, long requestId, int bufferIndex, int lengthBytes) {
        if (staging.byteSize() != RingDescriptor.SLOT_LENGTH) {
            throw new IllegalArgumentException(
                    "staging must be " + RingDescriptor.SLOT_LENGTH + " bytes: " + staging.byteSize());
        }
        long index = producerIndex.getAndIncrement();
        RingDescriptor.encode(staging, bufferIndex, lengthBytes, index);
        request.clear()
                .requestId(requestId)
                .opcode(Opcode.WRITE)
                .inline(staging)
                .remote(regionKey, ringOffset + RingDescriptor.slotOffset(index, capacity));
        return index;
    }

    /** Entries claimed so far (exact once producing threads are quiet). */
    public long produced() {
        return producerIndex.get();
    }

    public int capacity() {
        return capacity;
    }

    @Override
    public String toString() {
        return "RingProducer[ringOffset=" + ringOffset + ", capacity=" + capacity + ", produced=" + produced() + "]";
    }
}
