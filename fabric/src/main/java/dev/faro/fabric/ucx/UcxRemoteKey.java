package dev.faro.fabric.ucx;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.RemoteKey;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.openucx.jucx.ucp.UcpRemoteKey;

/**
 * A region's address on the {@code ucx} fabric: the owner node, the region id, a random 32-bit key, the rights, the
 * length, the region's virtual address in the owner's process and UCX's packed rkey ({@code ucp_rkey_pack}).
 *
 * <pre>
 *  bytes, little-endian:
 *   0: magic "FUK1" (4) | version (1) | rights bits (1) | reserved (2)
 *   8: node (8)
 *  16: region id (4) | key (4)
 *  24: length (8)
 *  32: address (8)
 *  40: rkey length (4) | packed rkey
 * </pre>
 *
 * UCX's rkeys carry no rights and no revocation: the initiator's progress thread checks rights, bounds and the
 * owner's revocations (see the package documentation) before it puts or gets; atomics are checked again by the
 * owner's progress thread, which applies them.
 *
 * <p>The imported object caches UCX's unpacked key for the endpoint to the owner ({@link #unpacked}), written and
 * read by the importing node's progress thread only.
 */
final class UcxRemoteKey implements RemoteKey {

    static final int MAGIC = 0x314b5546; // "FUK1"
    static final byte VERSION = 1;
    private static final int FIXED_LENGTH = 44;

    final long node;
    final int regionId;
    final int key;
    final int rightsBits;
    private final long lengthBytes;
    final long address;
    final byte[] packedKey;

    /** UCX's unpacked key for {@link #unpackedFor}; progress thread of the importing node only. */
    UcpRemoteKey unpacked;
    /** Its {@code ucp_rkey_h}, for {@link UcpRequests}. */
    long unpackedHandle;

    UcxPeer unpackedFor;

    UcxRemoteKey(long node, int regionId, int key, int rightsBits, long lengthBytes, long address, byte[] packedKey) {
        this.node = node;
        this.regionId = regionId;
        this.key = key;
        this.rightsBits = rightsBits;
        this.lengthBytes = lengthBytes;
        this.address = address;
        this.packedKey = packedKey;
    }

    @Override
    public long lengthBytes() {
        return lengthBytes;
    }

    @Override
    public byte[] toBytes() {
        return ByteBuffer.allocate(FIXED_LENGTH + packedKey.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(MAGIC)
                .put(VERSION)
                .put((byte) rightsBits)
                .putShort((short) 0)
                .putLong(node)
                .putInt(regionId)
                .putInt(key)
                .putLong(lengthBytes)
                .putLong(address)
                .putInt(packedKey.length)
                .put(packedKey)
                .array();
    }

    static UcxRemoteKey fromBytes(byte[] bytes) {
        FaroException.checkArgument(
                bytes != null && bytes.length > FIXED_LENGTH,
                "not a ucx remote key: %s bytes",
                bytes == null ? -1 : bytes.length);
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        FaroException.checkArgument(buffer.getInt() == MAGIC, "not a ucx remote key (bad magic)");
        FaroException.checkArgument(buffer.get() == VERSION, "ucx remote key of an unknown version");
        int rights = buffer.get() & 0xFF;
        buffer.getShort();
        long node = buffer.getLong();
        int regionId = buffer.getInt();
        int key = buffer.getInt();
        long length = buffer.getLong();
        long address = buffer.getLong();
        int packedLength = buffer.getInt();
        FaroException.checkArgument(node != 0 && length > 0, "ucx remote key with a zero node or length");
        FaroException.checkArgument(packedLength == buffer.remaining(), "ucx remote key of a wrong length");
        byte[] packed = new byte[packedLength];
        buffer.get(packed);
        return new UcxRemoteKey(node, regionId, key, rights, length, address, packed);
    }

    /** Whether {@code [offset, offset + length)} lies inside the region (overflow-safe). */
    boolean contains(long offset, long length) {
        return offset >= 0 && length >= 0 && offset <= lengthBytes - length;
    }

    @Override
    public String toString() {
        return "UcxRemoteKey[node=" + Long.toHexString(node) + ", region=" + regionId + ", length=" + lengthBytes + "]";
    }
}
