package dev.faro.middleware;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The notifications of DAIS16: small two-sided SENDs on the one connection of a process pair, each carrying up to
 * {@link #MAX_ENTRIES} entries (batched), so that a receiver need not poll its incoming rings.
 *
 * <pre>
 *  0               4               8                               16
 *  +-------+-------+---------------+-------------------------------+
 *  | type  | spare |  ring index   |          position             |  one entry, 16 B; a message is 1..8 entries
 *  +-------+-------+---------------+-------------------------------+
 *  type (int): {@link #WRITTEN} (sender → receiver: the ring holds data up to position),
 *              {@link #READ} (receiver → sender: the receiver consumed up to position)
 *  ring index (int): writerLocal * workersPerProcess + readerLocal, the worker pair in the two processes
 *  position (long): absolute, monotonic byte position in the ring pair; a repeated or stale value is harmless
 *  little-endian; written by the sending thread into an inline SEND, read by the receiver's network thread
 * </pre>
 */
final class NotificationDescriptor {

    static final int WRITTEN = 1;
    static final int READ = 2;
    static final int TYPE_OFFSET = 0;
    static final int RING_OFFSET = 4;
    static final int POSITION_OFFSET = 8;
    static final int ENTRY_LENGTH = 16;
    static final int MAX_ENTRIES = 8;
    static final int MESSAGE_LENGTH = ENTRY_LENGTH * MAX_ENTRIES;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private NotificationDescriptor() {}

    static void put(MemorySegment message, int entry, int type, int ring, long position) {
        long base = (long) entry * ENTRY_LENGTH;
        message.set(INT, base + TYPE_OFFSET, type);
        message.set(INT, base + RING_OFFSET, ring);
        message.set(LONG, base + POSITION_OFFSET, position);
    }

    static int type(MemorySegment message, long base) {
        return message.get(INT, base + TYPE_OFFSET);
    }

    static int ring(MemorySegment message, long base) {
        return message.get(INT, base + RING_OFFSET);
    }

    static long position(MemorySegment message, long base) {
        return message.get(LONG, base + POSITION_OFFSET);
    }
}
