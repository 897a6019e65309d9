package dev.faro.fabric.net;

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

    private DatagramDescriptor() {}
}
