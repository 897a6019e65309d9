package dev.faro.fabric.net;

import java.nio.ByteBuffer;

/**
 * One UD SEND as one UDP datagram: a 40-byte header, the payload, and a 16-byte tag.
 *
 * <pre>
 *  0               4   5   6       8               12              16
 *  +---------------+---+---+-------+---------------+---------------+
 *  |     magic     |ver|typ|  (0)  | payloadLength |destinationQpn |
 *  +---------------+---+---+-------+---------------+---------------+
 *  16                              24              28              32
 *  +-------------------------------+---------------+---------------+
 *  |          sourceNode           |   sourceQpn   |      (0)      |
 *  +-------------------------------+---------------+---------------+
 *  32                              40
 *  +-------------------------------+----------------------------+--------------------+
 *  |        destinationNode        |  payload (payloadLength)   |  tag (16)          |
 *  +-------------------------------+----------------------------+--------------------+
 * </pre>
 * Little-endian. {@code magic} is "FND1". The tag is HMAC-SHA256 with the shared secret over everything before it,
 * truncated to 16 bytes: a datagram whose tag does not verify is dropped (and counted), so only nodes that know the
 * secret can fill a receive. The tag authenticates the sender; it does not stop a replay, and UD may deliver a
 * datagram twice anyway. {@code destinationNode} makes a datagram for a node that restarted on the same port miss.
 *
 * <p>Writer: the sending node's progress thread; reader: the receiving node's progress thread.
 */
final class DatagramDescriptor {

    static final int MAGIC = 0x31444e46; // "FND1" little-endian
    static final byte VERSION = 1;
    static final byte TYPE_SEND = 1;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int TYPE_OFFSET = 5;
    static final int PAYLOAD_LENGTH_OFFSET = 8;
    static final int DESTINATION_QPN_OFFSET = 12;
    static final int SOURCE_NODE_OFFSET = 16;
    static final int SOURCE_QPN_OFFSET = 24;
    static final int DESTINATION_NODE_OFFSET = 32;
    static final int HEADER_LENGTH = 40;
    static final int TAG_LENGTH = 16;
    static final int MAX_LENGTH = HEADER_LENGTH + NetUdQueuePair.MTU_BYTES + TAG_LENGTH;

    /** {@link #checkedPayloadLength}: too short, or not magic, version and type of a faro datagram. */
    static final int NOT_A_DATAGRAM = -1;
    /** {@link #checkedPayloadLength}: the payload length is negative, above the MTU or not what the size says. */
    static final int BAD_PAYLOAD_LENGTH = -2;

    private DatagramDescriptor() {}

    /**
     * The payload length of the datagram in {@code datagram}'s bytes {@code [0, size)}, checked before anything else
     * is read (the tag is verified next, over {@code [0, HEADER_LENGTH + length)}): magic, version and type, and a
     * payload of at most the MTU that, with the header and the tag, makes up exactly {@code size} bytes. Returns the
     * length, or {@link #NOT_A_DATAGRAM} or {@link #BAD_PAYLOAD_LENGTH}. Data path: no allocation, no exception.
     */
    static int checkedPayloadLength(ByteBuffer datagram, int size) {
        if (size < HEADER_LENGTH + TAG_LENGTH
                || size > datagram.capacity()
                || datagram.getInt(MAGIC_OFFSET) != MAGIC
                || datagram.get(VERSION_OFFSET) != VERSION
                || datagram.get(TYPE_OFFSET) != TYPE_SEND) {
            return NOT_A_DATAGRAM;
        }
        int length = datagram.getInt(PAYLOAD_LENGTH_OFFSET);
        return length < 0 || length > NetUdQueuePair.MTU_BYTES || size != HEADER_LENGTH + length + TAG_LENGTH
                ? BAD_PAYLOAD_LENGTH
                : length;
    }
}
