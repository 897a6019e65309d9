package dev.faro.fabric.net;

import java.nio.ByteBuffer;

/**
 * The frames on a TCP connection between two nodes: a 64-byte header, then {@code payloadLength} bytes.
 *
 * <pre>
 *  0               4   5   6   7   8               12              16
 *  +---------------+---+---+---+---+---------------+---------------+
 *  |     magic     |ver|typ|sts|flg| payloadLength |      qpn      |
 *  +---------------+---+---+---+---+---------------+---------------+
 *  16              20              24                              32
 *  +---------------+---------------+-------------------------------+
 *  |   sourceQpn   |   immediate   |              psn              |
 *  +---------------+---------------+-------------------------------+
 *  32                              40                              48
 *  +-------------------------------+-------------------------------+
 *  |         remoteOffset          |            keyNode            |
 *  +-------------------------------+-------------------------------+
 *  48              52              56                              64
 *  +---------------+---------------+-------------------------------+
 *  |   regionId    |     rkey      |             value             |
 *  +---------------+---------------+-------------------------------+
 * </pre>
 * All fields little-endian. {@code magic} is "FNT1"; a frame with another magic or version ends the connection.
 * {@code qpn} is the receiving side's queue pair, {@code sourceQpn} the sending side's.
 *
 * <h2>Writers and readers</h2>
 * Every frame is written by the sending node's progress thread into its connection's outbound buffer and read by the
 * receiving node's progress thread; nothing else touches a connection. Two connections join two nodes, one dialed by
 * each: on a connection, the dialer sends handshake, request and heartbeat frames, the acceptor handshake, response
 * and heartbeat frames. TCP keeps them in order, which RC's in-order delivery relies on.
 *
 * <h2>Types</h2>
 * <pre>
 *  handshake  HELLO, CHALLENGE, PROOF, WELCOME      payload: see {@link Connection}
 *  control    HEARTBEAT, GOODBYE                    no payload
 *  requests   SEND, WRITE, WRITE_WITH_IMMEDIATE     payload: the data; psn; immediate; WRITE*: remoteOffset,
 *                                                   keyNode, regionId, rkey; flags: FLAG_ACK_REQUESTED
 *             READ_REQUEST                          value: the length to read; remoteOffset and key as above
 *             FETCH_ADD, COMPARE_SWAP               payload: compareOrAdd (8) | swap (8); remoteOffset and key
 *  responses  ACK                                   psn: every request of the queue pair up to psn is done
 *             NAK                                   psn failed with status (a CompletionStatus ordinal; receiver not
 *                                                   ready asks for a retry of psn and everything after it)
 *             READ_RESPONSE                         payload: the bytes read for psn
 *             ATOMIC_RESPONSE                       value: the old value for psn
 * </pre>
 * A response for psn implies that every earlier request of the queue pair is done. {@code psn} is the request's post
 * sequence on its queue pair, so a retransmission after "receiver not ready" carries the same psn.
 */
final class FrameDescriptor {

    static final int MAGIC = 0x31544e46; // "FNT1" little-endian
    static final byte VERSION = 1;

    static final int HEADER_LENGTH = 64;
    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int TYPE_OFFSET = 5;
    static final int STATUS_OFFSET = 6;
    static final int FLAGS_OFFSET = 7;
    static final int PAYLOAD_LENGTH_OFFSET = 8;
    static final int QPN_OFFSET = 12;
    static final int SOURCE_QPN_OFFSET = 16;
    static final int IMMEDIATE_OFFSET = 20;
    static final int PSN_OFFSET = 24;
    static final int REMOTE_OFFSET_OFFSET = 32;
    static final int KEY_NODE_OFFSET = 40;
    static final int REGION_ID_OFFSET = 48;
    static final int RKEY_OFFSET = 52;
    static final int VALUE_OFFSET = 56;

    static final byte HELLO = 1;
    static final byte CHALLENGE = 2;
    static final byte PROOF = 3;
    static final byte WELCOME = 4;
    static final byte HEARTBEAT = 5;
    static final byte GOODBYE = 6;
    static final byte SEND = 16;
    static final byte WRITE = 17;
    static final byte WRITE_WITH_IMMEDIATE = 18;
    static final byte READ_REQUEST = 19;
    static final byte FETCH_ADD = 20;
    static final byte COMPARE_SWAP = 21;
    static final byte ACK = 32;
    static final byte NAK = 33;
    static final byte READ_RESPONSE = 34;
    static final byte ATOMIC_RESPONSE = 35;

    /**
     * Flag of a SEND, WRITE or WRITE_WITH_IMMEDIATE: answer with an ACK. The initiator asks for one on signaled
     * requests and on the last request it has; an ACK covers every earlier request of the queue pair, so the others
     * need none. READs and atomics are always answered, failures always NAKed.
     */
    static final byte FLAG_ACK_REQUESTED = 1;

    /** The largest handshake payload; an unauthenticated peer cannot make us buffer more. */
    static final int MAX_HANDSHAKE_PAYLOAD = 128;
    /** The payload of an atomic request: compareOrAdd and swap. */
    static final int ATOMIC_PAYLOAD_LENGTH = 16;

    private FrameDescriptor() {}

    static boolean isHandshake(byte type) {
        return type >= HELLO && type <= WELCOME;
    }

    static boolean isRequest(byte type) {
        return type >= SEND && type <= COMPARE_SWAP;
    }

    static boolean isResponse(byte type) {
        return type >= ACK && type <= ATOMIC_RESPONSE;
    }

    /**
     * The largest payload a frame of {@code type} may carry, or -1 for an unknown type. The caller checks the length
     * before it reads a byte of payload.
     */
    static long maxPayload(byte type, long maxMessageBytes) {
        return switch (type) {
            case HELLO, CHALLENGE, PROOF, WELCOME -> MAX_HANDSHAKE_PAYLOAD;
            case HEARTBEAT, GOODBYE, READ_REQUEST, ACK, NAK, ATOMIC_RESPONSE -> 0;
            case SEND, WRITE, WRITE_WITH_IMMEDIATE, READ_RESPONSE -> maxMessageBytes;
            case FETCH_ADD, COMPARE_SWAP -> ATOMIC_PAYLOAD_LENGTH;
            default -> -1;
        };
    }

    /** Writes a header at {@code buffer}'s position and advances it. Data path. */
    static void put(
            ByteBuffer buffer,
            byte type,
            byte status,
            int payloadLength,
            int qpn,
            int sourceQpn,
            int immediate,
            long psn,
            long remoteOffset,
            long keyNode,
            int regionId,
            int rkey,
            long value) {
        put(
                buffer,
                type,
                status,
                (byte) 0,
                payloadLength,
                qpn,
                sourceQpn,
                immediate,
                psn,
                remoteOffset,
                keyNode,
                regionId,
                rkey,
                value);
    }

    /** As {@link #put(ByteBuffer, byte, byte, int, int, int, int, long, long, long, int, int, long)}, with flags. */
    static void put(
            ByteBuffer buffer,
            byte type,
            byte status,
            byte flags,
            int payloadLength,
            int qpn,
            int sourceQpn,
            int immediate,
            long psn,
            long remoteOffset,
            long keyNode,
            int regionId,
            int rkey,
            long value) {
        int at = buffer.position();
        buffer.putInt(at + MAGIC_OFFSET, MAGIC);
        buffer.put(at + VERSION_OFFSET, VERSION);
        buffer.put(at + TYPE_OFFSET, type);
        buffer.put(at + STATUS_OFFSET, status);
        buffer.put(at + FLAGS_OFFSET, flags);
        buffer.putInt(at + PAYLOAD_LENGTH_OFFSET, payloadLength);
        buffer.putInt(at + QPN_OFFSET, qpn);
        buffer.putInt(at + SOURCE_QPN_OFFSET, sourceQpn);
        buffer.putInt(at + IMMEDIATE_OFFSET, immediate);
        buffer.putLong(at + PSN_OFFSET, psn);
        buffer.putLong(at + REMOTE_OFFSET_OFFSET, remoteOffset);
        buffer.putLong(at + KEY_NODE_OFFSET, keyNode);
        buffer.putInt(at + REGION_ID_OFFSET, regionId);
        buffer.putInt(at + RKEY_OFFSET, rkey);
        buffer.putLong(at + VALUE_OFFSET, value);
        buffer.position(at + HEADER_LENGTH);
    }

    /** A header with only a type, a queue pair, a psn, a status and a value (responses and control frames). */
    static void putShort(ByteBuffer buffer, byte type, byte status, int qpn, int sourceQpn, long psn, long value) {
        put(buffer, type, status, 0, qpn, sourceQpn, 0, psn, 0, 0, 0, 0, value);
    }

    /** The decoded header of the frame being read: a reusable flyweight owned by one connection. */
    static final class Header {
        byte type;
        byte status;
        byte flags;
        int payloadLength;
        int qpn;
        int sourceQpn;
        int immediate;
        long psn;
        long remoteOffset;
        long keyNode;
        int regionId;
        int rkey;
        long value;

        /**
         * Decodes the header at {@code buffer}'s position (which must hold {@link #HEADER_LENGTH} bytes) and advances
         * past it. Returns false if magic or version are wrong. Data path.
         */
        boolean decode(ByteBuffer buffer) {
            int at = buffer.position();
            if (buffer.getInt(at + MAGIC_OFFSET) != MAGIC || buffer.get(at + VERSION_OFFSET) != VERSION) {
                return false;
            }
            type = buffer.get(at + TYPE_OFFSET);
            status = buffer.get(at + STATUS_OFFSET);
            flags = buffer.get(at + FLAGS_OFFSET);
            payloadLength = buffer.getInt(at + PAYLOAD_LENGTH_OFFSET);
            qpn = buffer.getInt(at + QPN_OFFSET);
            sourceQpn = buffer.getInt(at + SOURCE_QPN_OFFSET);
            immediate = buffer.getInt(at + IMMEDIATE_OFFSET);
            psn = buffer.getLong(at + PSN_OFFSET);
            remoteOffset = buffer.getLong(at + REMOTE_OFFSET_OFFSET);
            keyNode = buffer.getLong(at + KEY_NODE_OFFSET);
            regionId = buffer.getInt(at + REGION_ID_OFFSET);
            rkey = buffer.getInt(at + RKEY_OFFSET);
            value = buffer.getLong(at + VALUE_OFFSET);
            buffer.position(at + HEADER_LENGTH);
            return true;
        }

        /**
         * Whether the decoded type is known and its payload length one that type may carry ({@link #maxPayload}):
         * checked before a byte of payload is read or a handler sees the header. Data path.
         */
        boolean hasValidLength(long maxMessageBytes) {
            long max = maxPayload(type, maxMessageBytes);
            return max >= 0 && payloadLength >= 0 && payloadLength <= max;
        }
    }
}
