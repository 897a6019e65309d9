package dev.faro.fabric.shm;

import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.QueuePairType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A queue pair's file ({@code qp-<qpn>}): its state, its peer, and its receive queue, a ring of posted receives that
 * initiators on other nodes consume.
 *
 * <pre>
 *  header (512 B)
 *    0: magic (4) | version (4) | type (4) | state (4, release; owner only)
 *   16: receive CQ id (4) | receive depth (4) | ring capacity (4, power of two)
 *   32: peer node (8) | peer qpn (4)           RC: written by the owner at connect, before state = READY
 *  128: receive tail (8)     written by the owner (release) after it has filled the entry
 *  256: receive head (8)     claimed with CAS by whoever consumes a receive: a SEND's initiator, or the owner flushing
 *  384: receives missed (8)  UD: incremented (getAndAdd) by initiators whose SEND found no receive
 *  entries (32 B each, slot = index &amp; (capacity - 1))
 *   0               8               12              16              24
 *   +---------------+---------------+---------------+---------------+---------------+
 *   |  request id   |   region id   |    length     |    offset     |    (zero)     |
 *   +---------------+---------------+---------------+---------------+---------------+
 * </pre>
 *
 * <p>A consumer reads {@code head = h}, checks {@code h < tail} (acquire), reads entry {@code h}, then claims it by
 * CAS of head from h to h + 1; the values it read are valid if the CAS succeeds, because the owner rewrites that slot
 * only for index {@code h + capacity}, which needs {@code head > h} first. Region ids name the owner's {@code mr-<id>}
 * files; the owner validated bounds and rights when it posted the receive.
 */
final class QueuePairDescriptor {

    static final int MAGIC = 0x46415251; // "FARQ"
    static final int VERSION = 1;

    static final long MAGIC_OFFSET = 0;
    static final long VERSION_OFFSET = 4;
    static final long TYPE_OFFSET = 8;
    static final long STATE_OFFSET = 12;
    static final long RECEIVE_CQ_OFFSET = 16;
    static final long RECEIVE_DEPTH_OFFSET = 20;
    static final long RING_CAPACITY_OFFSET = 24;
    static final long PEER_NODE_OFFSET = 32;
    static final long PEER_QPN_OFFSET = 40;
    static final long RECEIVE_TAIL_OFFSET = 128;
    static final long RECEIVE_HEAD_OFFSET = 256;
    static final long RECEIVES_MISSED_OFFSET = 384;
    static final long ENTRIES_OFFSET = 512;

    static final long ENTRY_LENGTH = 32;
    static final long REQUEST_ID_OFFSET = 0;
    static final long REGION_OFFSET = 8;
    static final long LENGTH_OFFSET = 12;
    static final long OFFSET_OFFSET = 16;

    private QueuePairDescriptor() {}

    static String fileName(int qpn) {
        return "qp-" + qpn;
    }

    static long fileLength(int ringCapacity) {
        return ENTRIES_OFFSET + ringCapacity * ENTRY_LENGTH;
    }

    static void initialize(
            MemorySegment file,
            QueuePairType type,
            int receiveCqId,
            int receiveDepth,
            int ringCapacity,
            QueuePairState state) {
        file.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
        file.set(ValueLayout.JAVA_INT, TYPE_OFFSET, type.ordinal());
        file.set(ValueLayout.JAVA_INT, RECEIVE_CQ_OFFSET, receiveCqId);
        file.set(ValueLayout.JAVA_INT, RECEIVE_DEPTH_OFFSET, receiveDepth);
        file.set(ValueLayout.JAVA_INT, RING_CAPACITY_OFFSET, ringCapacity);
        SharedMemory.INT.setRelease(file, STATE_OFFSET, state.ordinal());
        SharedMemory.INT.setRelease(file, MAGIC_OFFSET, MAGIC);
    }

    /** {@code QueuePairType.values()} once: every UD SEND reads its target's type, and values() copies the array. */
    private static final QueuePairType[] TYPES = QueuePairType.values();

    static boolean isValid(MemorySegment file) {
        return file.byteSize() >= ENTRIES_OFFSET && (int) SharedMemory.INT.getAcquire(file, MAGIC_OFFSET) == MAGIC;
    }

    static QueuePairType type(MemorySegment file) {
        return TYPES[file.get(ValueLayout.JAVA_INT, TYPE_OFFSET)];
    }

    static int stateOrdinal(MemorySegment file) {
        return (int) SharedMemory.INT.getAcquire(file, STATE_OFFSET);
    }

    /** Whether the owner closed the queue pair (state CLOSED is final); peers then unmap its file. */
    static boolean isClosed(MemorySegment file) {
        return stateOrdinal(file) == QueuePairState.CLOSED.ordinal();
    }

    static void setState(MemorySegment file, QueuePairState state) {
        SharedMemory.INT.setRelease(file, STATE_OFFSET, state.ordinal());
    }

    static int receiveCompletionQueue(MemorySegment file) {
        return file.get(ValueLayout.JAVA_INT, RECEIVE_CQ_OFFSET);
    }

    static void setPeer(MemorySegment file, long peerNode, int peerQpn) {
        file.set(ValueLayout.JAVA_LONG, PEER_NODE_OFFSET, peerNode);
        file.set(ValueLayout.JAVA_INT, PEER_QPN_OFFSET, peerQpn);
    }

    static long peerNode(MemorySegment file) {
        return file.get(ValueLayout.JAVA_LONG, PEER_NODE_OFFSET);
    }

    static int peerQpn(MemorySegment file) {
        return file.get(ValueLayout.JAVA_INT, PEER_QPN_OFFSET);
    }

    /** Owner only: posted and not yet consumed receives. */
    static long postedReceives(MemorySegment file) {
        return (long) SharedMemory.LONG.getAcquire(file, RECEIVE_TAIL_OFFSET)
                - (long) SharedMemory.LONG.getAcquire(file, RECEIVE_HEAD_OFFSET);
    }

    /** Owner only (single writer of the tail): appends a receive. The caller has checked the depth. */
    static void postReceive(MemorySegment file, long requestId, int regionId, long offset, int length) {
        long tail = (long) SharedMemory.LONG.getVolatile(file, RECEIVE_TAIL_OFFSET);
        int capacity = file.get(ValueLayout.JAVA_INT, RING_CAPACITY_OFFSET);
        long entry = ENTRIES_OFFSET + (tail & (capacity - 1)) * ENTRY_LENGTH;
        file.set(ValueLayout.JAVA_LONG, entry + REQUEST_ID_OFFSET, requestId);
        file.set(ValueLayout.JAVA_INT, entry + REGION_OFFSET, regionId);
        file.set(ValueLayout.JAVA_INT, entry + LENGTH_OFFSET, length);
        file.set(ValueLayout.JAVA_LONG, entry + OFFSET_OFFSET, offset);
        SharedMemory.LONG.setRelease(file, RECEIVE_TAIL_OFFSET, tail + 1);
    }

    /**
     * Claims the oldest posted receive into {@code claimed}; false when none is posted. Data path: allocation-free,
     * lock-free; safe from any thread of any process.
     */
    static boolean claimReceive(MemorySegment file, ClaimedReceive claimed) {
        int capacity = file.get(ValueLayout.JAVA_INT, RING_CAPACITY_OFFSET);
        while (true) {
            long head = (long) SharedMemory.LONG.getVolatile(file, RECEIVE_HEAD_OFFSET);
            long tail = (long) SharedMemory.LONG.getAcquire(file, RECEIVE_TAIL_OFFSET);
            if (head >= tail) {
                return false;
            }
            long entry = ENTRIES_OFFSET + (head & (capacity - 1)) * ENTRY_LENGTH;
            long requestId = file.get(ValueLayout.JAVA_LONG, entry + REQUEST_ID_OFFSET);
            int regionId = file.get(ValueLayout.JAVA_INT, entry + REGION_OFFSET);
            int length = file.get(ValueLayout.JAVA_INT, entry + LENGTH_OFFSET);
            long offset = file.get(ValueLayout.JAVA_LONG, entry + OFFSET_OFFSET);
            if (SharedMemory.LONG.compareAndSet(file, RECEIVE_HEAD_OFFSET, head, head + 1)) {
                claimed.requestId = requestId;
                claimed.regionId = regionId;
                claimed.length = length;
                claimed.offset = offset;
                return true;
            }
            Thread.onSpinWait();
        }
    }

    static void countReceiveMissed(MemorySegment file) {
        SharedMemory.LONG.getAndAdd(file, RECEIVES_MISSED_OFFSET, 1L);
    }

    static long receivesMissed(MemorySegment file) {
        return (long) SharedMemory.LONG.getAcquire(file, RECEIVES_MISSED_OFFSET);
    }

    /** A receive taken off a ring: a reusable holder owned by the claiming thread. */
    static final class ClaimedReceive {
        long requestId;
        int regionId;
        int length;
        long offset;
    }
}
