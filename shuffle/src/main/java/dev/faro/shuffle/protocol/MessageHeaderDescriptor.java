package dev.faro.shuffle.protocol;

import dev.faro.shuffle.endpoint.StreamState;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The header at the start of every shuffle buffer on the wire (the paper's "metadata encoded in the buffer"):
 *
 * <pre>
 *  0               4       5       6               8               12              16
 *  +---------------+-------+-------+---------------+---------------+---------------+
 *  |     magic     | state | kind  |   version     | source endpoint| payload length|
 *  +---------------+-------+-------+---------------+---------------+---------------+
 *  |                  sequence (8)                 |        message count (8)      |  16..31
 *  +-----------------------------------------------+-------------------------------+
 *  payload: payload length bytes
 * </pre>
 *
 * <p>Written by the sending thread before {@code putData} posts the buffer; read by the receiving endpoint after the
 * completion (whose release/acquire orders it). Little-endian. {@code kind} is one of
 * <ul>
 *   <li>DATA — {@code sequence}: on UD, the message's id, unique per sending endpoint (0 where unused);</li>
 *   <li>PADDING — an empty message the RC Send/Receive close protocol uses to reach send/receive parity;</li>
 *   <li>END — UD end of stream to one destination: {@code message count} is how many DATA messages the sender sent
 *       to that destination, {@code sequence} the sum of {@code mix(id)} over them (the stream signature that catches
 *       a lost plus a duplicated message, which counting alone misses).</li>
 * </ul>
 *
 * <p>A receiver trusts nothing in a header before {@link #checkedPayloadLength} accepted it.
 */
public final class MessageHeaderDescriptor {

    public static final int MAGIC = 0x31425346; // "FSB1"
    public static final short VERSION = 1;

    public static final long MAGIC_OFFSET = 0;
    public static final long STATE_OFFSET = 4;
    public static final long KIND_OFFSET = 5;
    public static final long VERSION_OFFSET = 6;
    public static final long SOURCE_OFFSET = 8;
    public static final long PAYLOAD_LENGTH_OFFSET = 12;
    public static final long SEQUENCE_OFFSET = 16;
    public static final long MESSAGE_COUNT_OFFSET = 24;
    public static final int LENGTH = 32;

    public static final byte KIND_DATA = 0;
    public static final byte KIND_PADDING = 1;
    public static final byte KIND_END = 2;

    /** {@link #checkedPayloadLength}: no header of this version (magic, version, state or kind), or too few bytes. */
    public static final int NOT_A_HEADER = -1;
    /** {@link #checkedPayloadLength}: the payload length is negative or more than the bytes that may hold it. */
    public static final int BAD_PAYLOAD_LENGTH = -2;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;

    private MessageHeaderDescriptor() {}

    /** Writes a header at {@code offset}. Data path. */
    public static void write(
            MemorySegment buffer,
            long offset,
            StreamState state,
            byte kind,
            int sourceEndpoint,
            int payloadLength,
            long sequence,
            long messageCount) {
        buffer.set(INT, offset + MAGIC_OFFSET, MAGIC);
        buffer.set(ValueLayout.JAVA_BYTE, offset + STATE_OFFSET, (byte) state.ordinal());
        buffer.set(ValueLayout.JAVA_BYTE, offset + KIND_OFFSET, kind);
        buffer.set(SHORT, offset + VERSION_OFFSET, VERSION);
        buffer.set(INT, offset + SOURCE_OFFSET, sourceEndpoint);
        buffer.set(INT, offset + PAYLOAD_LENGTH_OFFSET, payloadLength);
        buffer.set(LONG, offset + SEQUENCE_OFFSET, sequence);
        buffer.set(LONG, offset + MESSAGE_COUNT_OFFSET, messageCount);
    }

    /**
     * The payload length of the header at {@code offset}, checked as a receiver must before it reads a field:
     * {@code availableBytes} (what arrived, or what the buffer can hold, from {@code offset} on) holds a header with
     * the magic and version this code writes, a known state and kind, and a payload of at most the rest. Returns the
     * length, or {@link #NOT_A_HEADER} or {@link #BAD_PAYLOAD_LENGTH}. Data path: no allocation, no exception.
     */
    public static int checkedPayloadLength(MemorySegment buffer, long offset, long availableBytes) {
        if (offset < 0
                || availableBytes < LENGTH
                || offset > buffer.byteSize() - LENGTH
                || !isValid(buffer, offset)
                || Byte.toUnsignedInt(buffer.get(ValueLayout.JAVA_BYTE, offset + STATE_OFFSET)) > 1
                || Byte.toUnsignedInt(kind(buffer, offset)) > KIND_END) {
            return NOT_A_HEADER;
        }
        int payloadLength = payloadLength(buffer, offset);
        long room = Math.min(availableBytes, buffer.byteSize() - offset) - LENGTH;
        return payloadLength < 0 || payloadLength > room ? BAD_PAYLOAD_LENGTH : payloadLength;
    }

    /** Whether the header at {@code offset} has the magic and version this code writes. */
    public static boolean isValid(MemorySegment buffer, long offset) {
        return buffer.get(INT, offset + MAGIC_OFFSET) == MAGIC && buffer.get(SHORT, offset + VERSION_OFFSET) == VERSION;
    }

    public static StreamState state(MemorySegment buffer, long offset) {
        return buffer.get(ValueLayout.JAVA_BYTE, offset + STATE_OFFSET) == 0
                ? StreamState.MORE_DATA
                : StreamState.DEPLETED;
    }

    public static byte kind(MemorySegment buffer, long offset) {
        return buffer.get(ValueLayout.JAVA_BYTE, offset + KIND_OFFSET);
    }

    public static int source(MemorySegment buffer, long offset) {
        return buffer.get(INT, offset + SOURCE_OFFSET);
    }

    public static int payloadLength(MemorySegment buffer, long offset) {
        return buffer.get(INT, offset + PAYLOAD_LENGTH_OFFSET);
    }

    public static long sequence(MemorySegment buffer, long offset) {
        return buffer.get(LONG, offset + SEQUENCE_OFFSET);
    }

    public static long messageCount(MemorySegment buffer, long offset) {
        return buffer.get(LONG, offset + MESSAGE_COUNT_OFFSET);
    }
}
