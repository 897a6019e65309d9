package dev.faro.zerosided.link;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The layout of one port's file of {@link ShmPacketLink}: a many-sender, one-receiver ring of datagram slots in a
 * mapped file, in the manner of a bounded MPMC queue with a sequence word per slot (only the receiver takes).
 *
 * <pre>
 *  0                   4                   8                                  16        20        24
 *  +-------------------+-------------------+----------------------------------+---------+---------+
 *  |   magic 'ZSPL'    |     version       |  owner pid                       |  slots  | slotLen |  header
 *  +-------------------+-------------------+----------------------------------+---------+---------+
 *  |  closed (owner sets 1 on close, release; senders read with acquire)    at 64                   |
 *  +-----------------------------------------------------------------------------------------------+
 *  |  waiting (4 B): 1 while the receiver sleeps or is about to; a futex word  at 96                 |
 *  +-----------------------------------------------------------------------------------------------+
 *  |  tail: the next slot to claim, absolute (senders CAS)                  at 128, own 128 B       |
 *  +-----------------------------------------------------------------------------------------------+
 *  slot i at 256 + i * slotLen (slotLen = 16 + datagram bytes, a multiple of 64):
 *  +----------------------------------+---------------------+---------------------+----------------+
 *  |  sequence (8 B)                  |  length (4 B)       |  source port (4 B)  |  datagram ...  |
 *  +----------------------------------+---------------------+---------------------+----------------+
 * </pre>
 *
 * All words little-endian (native on the hosts Faro runs on), read and written through the VarHandles here.
 *
 * <ul>
 *   <li><b>magic</b>: written by the owner last at creation, with release, after every slot's sequence; a sender that
 *       does not see it, or sees another version, drops (the port is not ready, or of another build).
 *   <li><b>sequence</b> of slot {@code i}, absolute: {@code = position} means free for the sender that claims
 *       {@code position} (= i mod slots); {@code = position + 1} means published (the sender's volatile store, after
 *       length, source and datagram); the receiver then frees it with {@code position + slots} (release).
 *   <li><b>tail</b>: a sender claims {@code position} by CAS from {@code position} to {@code position + 1} when the
 *       slot's sequence equals {@code position}; a sequence below it means the ring is full: the datagram is dropped,
 *       as a full switch port drops it.
 *   <li><b>waiting</b>: the receiver's sleeping flag and the futex word it sleeps on ({@link SharedFutex}). The
 *       receiver sets it to 1 (volatile) before its last look at the ring and sleeps while it is 1; a sender, after
 *       publishing a slot (volatile), reads it and, if it is 1, takes it back to 0 by CAS and wakes the receiver (one
 *       system call, by the sender that won the CAS). {@link ShmPacketLink#awaitDatagram} gives the argument that no
 *       wake-up is lost.
 * </ul>
 * A sender that dies between its claim and its publish stalls the ring (the receiver waits at that slot); the peers'
 * retries then time out, as they would for a dead link.
 */
final class ShmPacketLinkDescriptor {

    static final int MAGIC = 0x5A53504C; // 'ZSPL'
    static final int VERSION = 2;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int OWNER_PID_OFFSET = 8;
    static final int SLOTS_OFFSET = 16;
    static final int SLOT_LENGTH_OFFSET = 20;
    static final int CLOSED_OFFSET = 64;
    static final int WAITING_OFFSET = 96;
    static final int TAIL_OFFSET = 128;
    static final int HEADER_LENGTH = 256;

    static final int SLOT_SEQUENCE_OFFSET = 0;
    static final int SLOT_DATAGRAM_LENGTH_OFFSET = 8;
    static final int SLOT_SOURCE_OFFSET = 12;
    static final int SLOT_DATAGRAM_OFFSET = 16;
    static final int SLOT_ALIGNMENT = 64;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final VarHandle INT_HANDLE = INT.varHandle();
    static final VarHandle LONG_HANDLE = LONG.varHandle();

    private ShmPacketLinkDescriptor() {}

    /** The slot length for datagrams of up to {@code maxDatagramBytes}. */
    static int slotLength(int maxDatagramBytes) {
        int raw = SLOT_DATAGRAM_OFFSET + maxDatagramBytes;
        return (raw + SLOT_ALIGNMENT - 1) / SLOT_ALIGNMENT * SLOT_ALIGNMENT;
    }

    /** The file length of a ring of {@code slots} slots of {@code slotLength}. */
    static long fileLength(int slots, int slotLength) {
        return HEADER_LENGTH + (long) slots * slotLength;
    }

    static long slotOffset(long position, int slots, int slotLength) {
        return HEADER_LENGTH + (position & (slots - 1)) * slotLength;
    }

    /** Lays out a fresh ring: every slot free for its first position, then the header, the magic last. */
    static void initialize(MemorySegment file, int slots, int slotLength, long ownerPid) {
        for (int i = 0; i < slots; i++) {
            LONG_HANDLE.set(file, slotOffset(i, slots, slotLength) + SLOT_SEQUENCE_OFFSET, (long) i);
        }
        INT_HANDLE.set(file, (long) VERSION_OFFSET, VERSION);
        LONG_HANDLE.set(file, (long) OWNER_PID_OFFSET, ownerPid);
        INT_HANDLE.set(file, (long) SLOTS_OFFSET, slots);
        INT_HANDLE.set(file, (long) SLOT_LENGTH_OFFSET, slotLength);
        INT_HANDLE.set(file, (long) CLOSED_OFFSET, 0);
        INT_HANDLE.set(file, (long) WAITING_OFFSET, 0);
        LONG_HANDLE.set(file, (long) TAIL_OFFSET, 0L);
        INT_HANDLE.setRelease(file, (long) MAGIC_OFFSET, MAGIC);
    }

    static boolean ready(MemorySegment file) {
        return file.byteSize() >= HEADER_LENGTH
                && (int) INT_HANDLE.getAcquire(file, (long) MAGIC_OFFSET) == MAGIC
                && (int) INT_HANDLE.get(file, (long) VERSION_OFFSET) == VERSION;
    }

    static boolean closed(MemorySegment file) {
        return (int) INT_HANDLE.getAcquire(file, (long) CLOSED_OFFSET) != 0;
    }

    static void markClosed(MemorySegment file) {
        INT_HANDLE.setRelease(file, (long) CLOSED_OFFSET, 1);
    }

    static long ownerPid(MemorySegment file) {
        return (long) LONG_HANDLE.get(file, (long) OWNER_PID_OFFSET);
    }

    static int slots(MemorySegment file) {
        return (int) INT_HANDLE.get(file, (long) SLOTS_OFFSET);
    }

    static int slotLength(MemorySegment file) {
        return (int) INT_HANDLE.get(file, (long) SLOT_LENGTH_OFFSET);
    }
}
