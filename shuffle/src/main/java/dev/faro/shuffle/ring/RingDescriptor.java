package dev.faro.shuffle.ring;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The layout of a notification ring in registered memory: the paper's circular queues {@code FreeArr} and
 * {@code ValidArr} (TODS19 §5.4–5.5). A region holds one ring per remote peer; each ring has exactly one remote
 * producer, which fills slots by RDMA WRITE, and a local consumer.
 *
 * <pre>
 *  ring r of a region: starts at r * ringStride(N), a multiple of 128 B; N = 2^k slots of 16 B
 *  0               4               8                                                               16
 *  +---------------+---------------+---------------------------------------------------------------+
 *  |  bufferIndex  |  lengthBytes  |                 sequence = absolute index + 1                 |  slot i &amp; (N-1)
 *  +---------------+---------------+---------------------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>{@code bufferIndex} (offset 0, 4 B, little-endian): the buffer the entry names — its index in the
 *       region of whoever owns the buffers (the sender's pool for READ, the receiver's buffers for WRITE).</li>
 *   <li>{@code lengthBytes} (offset 4, 4 B): bytes of the buffer that hold a message (header included), or 0 where
 *       the ring does not need it (FreeArr).</li>
 *   <li>{@code sequence} (offset 8, 8 B): the entry's absolute index (0, 1, 2, ... over the ring's whole life) plus
 *       one, so that zero always means "empty".</li>
 * </ul>
 *
 * <p><b>Writer</b>: the remote producer, one RDMA WRITE of the whole slot (inline), whose last 8-byte word is
 * {@code sequence}. The fabric contract makes a WRITE's last 8-byte word visible last, with release semantics (on
 * InfiniBand: RDMA WRITEs are placed in increasing address order). The local consumer also writes
 * {@code sequence}: once it has taken the entry it clears it to zero, by a CAS from the entry's own value (so a
 * clear that comes late can never erase the next lap's entry).
 *
 * <p><b>Reader</b>: the local consumer reads {@code sequence} with acquire; only when it equals the expected
 * absolute index + 1 does it read the other fields, which the acquire orders after the producer's bytes. A stale
 * entry of an earlier lap, a slot cleared after use and a slot being written all fail that test.
 *
 * <p><b>Ordering rule</b> (the user's flow control, not the ring's): the producer writes index {@code i} only after
 * the consumer took index {@code i - N} and acted on it. A ring's capacity must therefore be at least the number of
 * entries that can be outstanding at once; {@link #capacityFor(int)} gives it. Each user documents why its entries
 * are bounded (e.g. one entry per buffer in flight).
 */
public final class RingDescriptor {

    public static final long BUFFER_INDEX_OFFSET = 0;
    public static final long LENGTH_OFFSET = 4;
    public static final long SEQUENCE_OFFSET = 8;
    public static final int SLOT_LENGTH = 16;
    /** Each ring starts on its own 128-byte boundary: rings of different producers never share a line pair. */
    public static final int RING_ALIGNMENT = 128;
    /** The smallest ring: one 128-byte block of slots. */
    public static final int MIN_CAPACITY = RING_ALIGNMENT / SLOT_LENGTH;

    /** What {@link RingConsumer#poll()} returns when the head slot holds no entry. */
    public static final long EMPTY = -1L;

    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    static {
        if (SEQUENCE_OFFSET + Long.BYTES != SLOT_LENGTH || (RING_ALIGNMENT % SLOT_LENGTH) != 0) {
            throw new ExceptionInInitializerError("sequence must be the last 8-byte word of a slot");
        }
    }

    private RingDescriptor() {}

    /** The capacity for a ring on which at most {@code outstanding} entries can be unconsumed at once. */
    public static int capacityFor(int outstanding) {
        if (outstanding < 1 || outstanding > 1 << 30) {
            throw new IllegalArgumentException(
                    "outstanding entries must be within [1, 2^30]: outstanding=" + outstanding);
        }
        int capacity = Integer.highestOneBit(outstanding);
        if (capacity < outstanding) {
            capacity <<= 1;
        }
        return Math.max(MIN_CAPACITY, capacity);
    }

    /** Checks that {@code capacity} is a power of two of at least {@link #MIN_CAPACITY} slots. */
    public static int checkCapacity(int capacity) {
        if (capacity < MIN_CAPACITY || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException(
                    "ring capacity must be a power of two of at least " + MIN_CAPACITY + ": capacity=" + capacity);
        }
        return capacity;
    }

    /** Bytes from one ring's start to the next one's. */
    public static long ringStride(int capacity) {
        return (long) checkCapacity(capacity) * SLOT_LENGTH;
    }

    /** Offset of ring {@code ring} in a region of rings of {@code capacity} slots. */
    public static long ringOffset(int ring, int capacity) {
        return ring * ringStride(capacity);
    }

    /** Bytes of a region holding {@code rings} rings of {@code capacity} slots. */
    public static long regionLength(int rings, int capacity) {
        if (rings < 1) {
            throw new IllegalArgumentException("rings must be positive: rings=" + rings);
        }
        return rings * ringStride(capacity);
    }

    /** Offset of the slot of absolute index {@code index}, relative to its ring's start. */
    public static long slotOffset(long index, int capacity) {
        return (index & (capacity - 1)) * SLOT_LENGTH;
    }

    /** Encodes a slot's first word as {@link RingConsumer#poll()} returns it. */
    public static long entry(int bufferIndex, int lengthBytes) {
        return (long) lengthBytes << 32 | (bufferIndex & 0xFFFF_FFFFL);
    }

    /** The {@code bufferIndex} of an entry from {@link RingConsumer#poll()}. */
    public static int bufferIndex(long entry) {
        return (int) entry;
    }

    /** The {@code lengthBytes} of an entry from {@link RingConsumer#poll()}. */
    public static int lengthBytes(long entry) {
        return (int) (entry >>> 32);
    }

    /** Fills a 16-byte staging segment with a slot's bytes, ready to be written (little-endian). */
    static void encode(MemorySegment staging, int bufferIndex, int lengthBytes, long index) {
        staging.set(ValueLayout.JAVA_INT_UNALIGNED, BUFFER_INDEX_OFFSET, bufferIndex);
        staging.set(ValueLayout.JAVA_INT_UNALIGNED, LENGTH_OFFSET, lengthBytes);
        staging.set(ValueLayout.JAVA_LONG_UNALIGNED, SEQUENCE_OFFSET, index + 1);
    }
}
