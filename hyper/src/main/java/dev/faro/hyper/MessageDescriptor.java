package dev.faro.hyper;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The wire part of a multiplexer message (VLDB16 §3.2: exchange operator id, isLast, bytes used), at the start of
 * every pooled message and of every end-of-stream marker:
 *
 * <pre>
 *  0               4               8               12              16
 *  +---------------+---------------+---------------+---------------+
 *  |     magic     |  exchange id  |  source node  |     flags     |
 *  +---------------+---------------+---------------+---------------+
 *  |  bytes used   |               reserved (12 bytes, zero)        |  16..31
 *  +---------------+------------------------------------------------+
 *  payload: bytes used
 * </pre>
 *
 * <ul>
 *   <li>{@code magic}: {@link #MAGIC}, with the format version in its low byte; anything else is not a message.</li>
 *   <li>{@code exchange id}: the <em>sender's</em> id of the exchange ({@link ExchangeTable#id}: slot and
 *       generation); the receiver maps (source node, id) to its own exchange, registered at open.</li>
 *   <li>{@code flags}: bit 0 is {@code isLast}: the sending node's last message of the exchange to this node (no
 *       payload).</li>
 * </ul>
 *
 * <p>Written by the sending worker (data messages) or the network thread (end markers) before the message is queued;
 * read by the receiving network thread after the receive completion (whose release/acquire orders it).
 * Little-endian (the platform order of the FFM layouts below on the supported hosts). The local header of the paper
 * (registration key, NUMA node, retain count) is not on the wire: it is {@link Message}'s fields.
 */
final class MessageDescriptor {

    static final int MAGIC = 0x48595001; // "HYP" + version 1
    static final long MAGIC_OFFSET = 0;
    static final long EXCHANGE_OFFSET = 4;
    static final long SOURCE_OFFSET = 8;
    static final long FLAGS_OFFSET = 12;
    static final long BYTES_USED_OFFSET = 16;
    static final int LENGTH = 32;

    static final int FLAG_LAST = 1;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private MessageDescriptor() {}

    /** Writes the header at the start of {@code message}. Data path. */
    static void write(MemorySegment message, int exchangeId, int sourceNode, int flags, int bytesUsed) {
        message.set(INT, MAGIC_OFFSET, MAGIC);
        message.set(INT, EXCHANGE_OFFSET, exchangeId);
        message.set(INT, SOURCE_OFFSET, sourceNode);
        message.set(INT, FLAGS_OFFSET, flags);
        message.set(INT, BYTES_USED_OFFSET, bytesUsed);
    }

    static boolean hasMagic(MemorySegment message) {
        return message.get(INT, MAGIC_OFFSET) == MAGIC;
    }

    static int exchangeId(MemorySegment message) {
        return message.get(INT, EXCHANGE_OFFSET);
    }

    static int sourceNode(MemorySegment message) {
        return message.get(INT, SOURCE_OFFSET);
    }

    static boolean isLast(MemorySegment message) {
        return (message.get(INT, FLAGS_OFFSET) & FLAG_LAST) != 0;
    }

    static int bytesUsed(MemorySegment message) {
        return message.get(INT, BYTES_USED_OFFSET);
    }
}
