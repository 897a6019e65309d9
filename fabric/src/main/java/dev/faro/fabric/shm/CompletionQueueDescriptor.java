package dev.faro.fabric.shm;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkCompletion;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A completion queue's file ({@code cq-<id>}): a many-producer, one-consumer ring of 64-byte entries.
 *
 * <pre>
 *  header (512 B)
 *    0: magic (4) | version (4) | capacity (4, power of two) | closed (4, release; owner only)
 *  128: tail (8)        claimed by producers with CAS: this node's posting threads and initiators on any node
 *  256: head (8)        written by the consumer (release) after it has read an entry
 *  384: overrun (4)     set by a producer that found the ring full
 *  entries (64 B each, slot = index &amp; (capacity - 1))
 *   0               8               16      20      24      28      32  33  34       40              56
 *   +---------------+---------------+-------+-------+-------+-------+---+---+---+----+---------------+---------------+
 *   |  request id   |  source node  |length |  imm  |  qpn  |src qpn|op |st |fl |    | post sequence |   published   |
 *   +---------------+---------------+-------+-------+-------+-------+---+---+---+----+---------------+---------------+
 * </pre>
 *
 * <p>A producer claims index {@code t} by CAS of {@code tail} from t to t + 1 (only while {@code t - head <
 * capacity}), fills the entry with plain stores and then writes {@code published = t + 1} with release. The consumer
 * reads {@code published} of slot {@code head} with acquire; when it equals {@code head + 1} the entry is complete.
 * Indexes are absolute, so a slot's {@code published} from the previous lap never matches. Flag bit 0: the immediate
 * is valid; bit 1: a send-queue completion (the post sequence frees send-queue slots).
 *
 * <p>{@code closed} is 0 until the owner closes the queue; it then writes 1 (release) before it deletes the file, and
 * peers that mapped the file unmap it once they read 1 (acquire).
 */
final class CompletionQueueDescriptor {

    static final int MAGIC = 0x46415243; // "FARC"
    static final int VERSION = 1;

    static final long MAGIC_OFFSET = 0;
    static final long VERSION_OFFSET = 4;
    static final long CAPACITY_OFFSET = 8;
    static final long CLOSED_OFFSET = 12;
    static final long TAIL_OFFSET = 128;
    static final long HEAD_OFFSET = 256;
    static final long OVERRUN_OFFSET = 384;
    static final long ENTRIES_OFFSET = 512;

    static final long ENTRY_LENGTH = 64;
    static final long REQUEST_ID_OFFSET = 0;
    static final long SOURCE_NODE_OFFSET = 8;
    static final long BYTE_LENGTH_OFFSET = 16;
    static final long IMMEDIATE_OFFSET = 20;
    static final long QPN_OFFSET = 24;
    static final long SOURCE_QPN_OFFSET = 28;
    static final long OPCODE_OFFSET = 32;
    static final long STATUS_OFFSET = 33;
    static final long FLAGS_OFFSET = 34;
    static final long POST_SEQUENCE_OFFSET = 40;
    static final long PUBLISHED_OFFSET = 56;

    static final byte FLAG_IMMEDIATE = 1;
    static final byte FLAG_SEND_QUEUE = 2;

    /** Returned by {@link #offer} when the ring was full; the overrun flag is then set. */
    static final boolean OVERRUN = false;

    private CompletionQueueDescriptor() {}

    static String fileName(int id) {
        return "cq-" + id;
    }

    static long fileLength(int capacity) {
        return ENTRIES_OFFSET + capacity * ENTRY_LENGTH;
    }

    static void initialize(MemorySegment file, int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: capacity=" + capacity);
        }
        file.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
        file.set(ValueLayout.JAVA_INT, CAPACITY_OFFSET, capacity);
        SharedMemory.INT.setRelease(file, MAGIC_OFFSET, MAGIC);
    }

    /** Owner: marks the queue closed, before the file is deleted. */
    static void markClosed(MemorySegment file) {
        SharedMemory.INT.setRelease(file, CLOSED_OFFSET, 1);
    }

    /** Whether the owner closed the queue; peers then unmap its file. */
    static boolean isClosed(MemorySegment file) {
        return (int) SharedMemory.INT.getAcquire(file, CLOSED_OFFSET) != 0;
    }

    static int capacity(MemorySegment file) {
        return file.get(ValueLayout.JAVA_INT, CAPACITY_OFFSET);
    }

    /**
     * Producer side: appends one completion. Returns false (and sets the overrun flag) when the ring is full.
     * Data path: allocation-free, lock-free; safe from any thread of any process.
     */
    static boolean offer(
            MemorySegment file,
            long requestId,
            CompletionStatus status,
            Opcode opcode,
            int byteLength,
            int immediate,
            boolean hasImmediate,
            boolean sendQueue,
            long postSequence,
            int queuePairNumber,
            long sourceNode,
            int sourceQueuePairNumber) {
        int capacity = file.get(ValueLayout.JAVA_INT, CAPACITY_OFFSET);
        long index;
        while (true) {
            index = (long) SharedMemory.LONG.getVolatile(file, TAIL_OFFSET);
            long head = (long) SharedMemory.LONG.getAcquire(file, HEAD_OFFSET);
            if (index - head >= capacity) {
                SharedMemory.INT.setRelease(file, OVERRUN_OFFSET, 1);
                return OVERRUN;
            }
            if (SharedMemory.LONG.compareAndSet(file, TAIL_OFFSET, index, index + 1)) {
                break;
            }
            Thread.onSpinWait();
        }
        long entry = ENTRIES_OFFSET + (index & (capacity - 1)) * ENTRY_LENGTH;
        file.set(ValueLayout.JAVA_LONG, entry + REQUEST_ID_OFFSET, requestId);
        file.set(ValueLayout.JAVA_LONG, entry + SOURCE_NODE_OFFSET, sourceNode);
        file.set(ValueLayout.JAVA_INT, entry + BYTE_LENGTH_OFFSET, byteLength);
        file.set(ValueLayout.JAVA_INT, entry + IMMEDIATE_OFFSET, immediate);
        file.set(ValueLayout.JAVA_INT, entry + QPN_OFFSET, queuePairNumber);
        file.set(ValueLayout.JAVA_INT, entry + SOURCE_QPN_OFFSET, sourceQueuePairNumber);
        file.set(ValueLayout.JAVA_BYTE, entry + OPCODE_OFFSET, (byte) opcode.ordinal());
        file.set(ValueLayout.JAVA_BYTE, entry + STATUS_OFFSET, (byte) status.ordinal());
        file.set(ValueLayout.JAVA_BYTE, entry + FLAGS_OFFSET, (byte)
                ((hasImmediate ? FLAG_IMMEDIATE : 0) | (sendQueue ? FLAG_SEND_QUEUE : 0)));
        file.set(ValueLayout.JAVA_LONG, entry + POST_SEQUENCE_OFFSET, postSequence);
        SharedMemory.LONG.setRelease(file, entry + PUBLISHED_OFFSET, index + 1);
        return true;
    }

    /** Consumer side: the next index to read. Only the consumer writes it. */
    static long head(MemorySegment file) {
        return (long) SharedMemory.LONG.getVolatile(file, HEAD_OFFSET);
    }

    /** Indexes claimed by producers so far (some may not be published yet). */
    static long tail(MemorySegment file) {
        return (long) SharedMemory.LONG.getAcquire(file, TAIL_OFFSET);
    }

    static boolean isOverrun(MemorySegment file) {
        return (int) SharedMemory.INT.getAcquire(file, OVERRUN_OFFSET) != 0;
    }

    /** Offset of the entry with absolute index {@code index}. */
    static long entryOffset(MemorySegment file, long index) {
        int capacity = file.get(ValueLayout.JAVA_INT, CAPACITY_OFFSET);
        return ENTRIES_OFFSET + (index & (capacity - 1)) * ENTRY_LENGTH;
    }

    /** Whether the entry with absolute index {@code index} is published (acquire). */
    static boolean isPublished(MemorySegment file, long entry, long index) {
        return (long) SharedMemory.LONG.getAcquire(file, entry + PUBLISHED_OFFSET) == index + 1;
    }

    /** Consumer side: copies a published entry into {@code completion}. */
    static void read(MemorySegment file, long entry, WorkCompletion completion) {
        byte flags = file.get(ValueLayout.JAVA_BYTE, entry + FLAGS_OFFSET);
        completion.set(
                file.get(ValueLayout.JAVA_LONG, entry + REQUEST_ID_OFFSET),
                CompletionStatus.fromOrdinal(file.get(ValueLayout.JAVA_BYTE, entry + STATUS_OFFSET)),
                Opcode.fromOrdinal(file.get(ValueLayout.JAVA_BYTE, entry + OPCODE_OFFSET)),
                file.get(ValueLayout.JAVA_INT, entry + BYTE_LENGTH_OFFSET),
                file.get(ValueLayout.JAVA_INT, entry + IMMEDIATE_OFFSET),
                (flags & FLAG_IMMEDIATE) != 0,
                file.get(ValueLayout.JAVA_INT, entry + QPN_OFFSET),
                file.get(ValueLayout.JAVA_LONG, entry + SOURCE_NODE_OFFSET),
                file.get(ValueLayout.JAVA_INT, entry + SOURCE_QPN_OFFSET));
    }

    static boolean isSendQueueEntry(MemorySegment file, long entry) {
        return (file.get(ValueLayout.JAVA_BYTE, entry + FLAGS_OFFSET) & FLAG_SEND_QUEUE) != 0;
    }

    static long postSequence(MemorySegment file, long entry) {
        return file.get(ValueLayout.JAVA_LONG, entry + POST_SEQUENCE_OFFSET);
    }

    /** Consumer side: frees every entry before {@code newHead} for producers (release). */
    static void advanceHead(MemorySegment file, long newHead) {
        SharedMemory.LONG.setRelease(file, HEAD_OFFSET, newHead);
    }
}
