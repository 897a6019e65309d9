package dev.faro.fabric.net;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.RemoteKey;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A region's address on the {@code net} fabric: the owner node (id and where it listens), the region id and the
 * random 32-bit key the owner's progress thread checks on every access.
 *
 * <pre>
 *  bytes, little-endian:
 *   0: magic "FNK1" (4) | version (1) | reserved (3)
 *   8: node (8)
 *  16: region id (4) | key (4)
 *  24: length (8)
 *  32: NodeAddress (5 + 4 or 16)
 * </pre>
 */
final class NetRemoteKey implements RemoteKey {

    static final int MAGIC = 0x314b4e46; // "FNK1" little-endian
    static final byte VERSION = 1;
    private static final int FIXED_LENGTH = 32;

    final NodeAddress address;
    final long node;
    final int regionId;
    final int key;
    private final long lengthBytes;

    NetRemoteKey(NodeAddress address, long node, int regionId, int key, long lengthBytes) {
        this.address = address;
        this.node = node;
        this.regionId = regionId;
        this.key = key;
        this.lengthBytes = lengthBytes;
    }

    @Override
    public long lengthBytes() {
        return lengthBytes;
    }

    @Override
    public byte[] toBytes() {
        ByteBuffer buffer =
                ByteBuffer.allocate(FIXED_LENGTH + address.encodedLength()).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(MAGIC)
                .put(VERSION)
                .put((byte) 0)
                .putShort((short) 0)
                .putLong(node)
                .putInt(regionId)
                .putInt(key)
                .putLong(lengthBytes);
        address.encode(buffer);
        return buffer.array();
    }

    static NetRemoteKey fromBytes(byte[] bytes) {
        FaroException.checkArgument(
                bytes != null && bytes.length > FIXED_LENGTH,
                "not a net remote key: %s bytes",
                bytes == null ? -1 : bytes.length);
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        FaroException.checkArgument(buffer.getInt() == MAGIC, "not a net remote key (bad magic)");
        FaroException.checkArgument(buffer.get() == VERSION, "net remote key of an unknown version");
        buffer.get();
        buffer.getShort();
        long node = buffer.getLong();
        int regionId = buffer.getInt();
        int key = buffer.getInt();
        long length = buffer.getLong();
        FaroException.checkArgument(node != 0 && length > 0, "net remote key with a zero node or length");
        return new NetRemoteKey(NodeAddress.decode(buffer, "net remote key"), node, regionId, key, length);
    }

    @Override
    public String toString() {
        return "NetRemoteKey[node=" + Long.toHexString(node) + "@" + address + ", region=" + regionId + ", length="
                + lengthBytes + "]";
    }
}
