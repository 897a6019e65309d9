package dev.faro.fabric.net;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.QueuePairType;
import dev.faro.fabric.spi.AbstractQueuePairAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A queue pair's address on the {@code net} fabric: the node (id and where it listens) and the queue pair number.
 *
 * <pre>
 *  bytes, little-endian:
 *   0: magic "FNA1" (4) | version (1) | type (1: RC 0, UD 1) | reserved (2)
 *   8: node (8)
 *  16: qpn (4)
 *  20: NodeAddress (5 + 4 or 16)
 * </pre>
 */
final class NetQueuePairAddress extends AbstractQueuePairAddress {

    static final int MAGIC = 0x31414e46; // "FNA1" little-endian
    static final byte VERSION = 1;
    private static final int FIXED_LENGTH = 20;

    final NodeAddress address;

    /** The UDP destination, resolved once (no lookups: the address is a literal). */
    final InetSocketAddress udp;

    NetQueuePairAddress(NodeAddress address, long node, int qpn, QueuePairType type) {
        super(node, qpn, type);
        this.address = address;
        this.udp = address.udp();
    }

    @Override
    public byte[] toBytes() {
        ByteBuffer buffer =
                ByteBuffer.allocate(FIXED_LENGTH + address.encodedLength()).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(MAGIC)
                .put(VERSION)
                .put((byte) type().ordinal())
                .putShort((short) 0)
                .putLong(node())
                .putInt(queuePairNumber());
        address.encode(buffer);
        return buffer.array();
    }

    static NetQueuePairAddress fromBytes(byte[] bytes) {
        FaroException.checkArgument(
                bytes != null && bytes.length > FIXED_LENGTH,
                "not a net queue pair address: %s bytes",
                bytes == null ? -1 : bytes.length);
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        FaroException.checkArgument(buffer.getInt() == MAGIC, "not a net queue pair address (bad magic)");
        FaroException.checkArgument(buffer.get() == VERSION, "net queue pair address of an unknown version");
        int type = buffer.get();
        buffer.getShort();
        FaroException.checkArgument(type == 0 || type == 1, "bad queue pair type %d", type);
        long node = buffer.getLong();
        int qpn = buffer.getInt();
        FaroException.checkArgument(node != 0 && qpn > 0, "net queue pair address with a zero node or qpn");
        return new NetQueuePairAddress(
                NodeAddress.decode(buffer, "net queue pair address"), node, qpn, QueuePairType.values()[type]);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NetQueuePairAddress that && sameQueuePair(that);
    }

    @Override
    public String toString() {
        return super.toString() + "(" + address + ")";
    }
}
