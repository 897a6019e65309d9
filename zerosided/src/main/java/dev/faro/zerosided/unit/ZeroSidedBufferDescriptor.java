package dev.faro.zerosided.unit;

/**
 * The layout of a zero-sided circular buffer in a processing unit's registered memory, little-endian. The same layout
 * serves a producer's outgoing buffer and a consumer's incoming one; only who writes which word differs.
 *
 * <pre>
 *  0                               8
 *  +-------------------------------+
 *  |E|        head (63)            |  0    own 128 B
 *  +-------------------------------+
 *  |           tail (64)           |  128  own 128 B
 *  +-------------------------------+
 *  | slot 0 | slot 1 | ... | slot capacity-1 |  256, itemBytes each
 *  +------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li><b>head</b>: the absolute number of items ever pushed (slot = head mod capacity); bit 63 (E) is end of stream,
 *       set together with the final head. Producer buffer: written by the producer thread with release after the item
 *       (requirement 3 of the paper), read by the switch (an 8-byte RDMA READ, served with acquire) or reported by
 *       doorbell. Consumer buffer: written by the switch (8-byte RDMA WRITE, applied with release, only after the
 *       items' WRITE was ACKed), read by the consumer thread with acquire.
 *   <li><b>tail</b>: the absolute number of items ever popped. Producer buffer: written by the switch (RDMA WRITE,
 *       after the consumer's head), read by the producer thread with acquire to find free slots. Consumer buffer:
 *       written by the consumer thread with release after it has read the item, read by the switch.
 * </ul>
 *
 * <p>Pointers are absolute 64-bit counts (the paper's are 4-byte ring offsets), so a resent pointer WRITE is harmless
 * and never advances a pointer twice. A WRITE of items and a READ of items never cross the end of the ring: the switch
 * splits a batch there.
 */
public final class ZeroSidedBufferDescriptor {

    public static final int HEAD_OFFSET = 0;
    public static final int TAIL_OFFSET = 128;
    public static final int SLOTS_OFFSET = 256;

    /** Bit 63 of the head word: no more items will follow. */
    public static final long END_OF_STREAM_BIT = 1L << 63;

    /** Slot size alignment: items are whole 8-byte words, so pointer and item words never share a word. */
    public static final int ITEM_ALIGNMENT = 8;

    private ZeroSidedBufferDescriptor() {}

    /**
     * The bytes a buffer of {@code capacity} items of {@code itemBytes} occupies.
     *
     * @throws IllegalArgumentException if the capacity is not positive or the item size not a positive multiple of
     *     {@link #ITEM_ALIGNMENT}
     */
    public static long lengthBytes(int capacity, int itemBytes) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: capacity=" + capacity);
        }
        if (itemBytes <= 0 || itemBytes % ITEM_ALIGNMENT != 0) {
            throw new IllegalArgumentException("itemBytes must be a positive multiple of 8: itemBytes=" + itemBytes);
        }
        return SLOTS_OFFSET + (long) capacity * itemBytes;
    }

    /** The offset of the slot holding item number {@code position} (absolute). */
    public static long slotOffset(long position, int capacity, int itemBytes) {
        return SLOTS_OFFSET + (position % capacity) * itemBytes;
    }

    /** The item count of a head word (without the end-of-stream bit). */
    public static long count(long headWord) {
        return headWord & ~END_OF_STREAM_BIT;
    }

    public static boolean ended(long headWord) {
        return (headWord & END_OF_STREAM_BIT) != 0;
    }
}
