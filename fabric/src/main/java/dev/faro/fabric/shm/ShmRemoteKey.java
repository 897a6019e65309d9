package dev.faro.fabric.shm;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.RemoteKey;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A region's address on the {@code shm} fabric: node, region id and the random 32-bit key the target checks.
 *
 * <pre>
 *  bytes: magic "FRK1" (4) | node (8) | region id (4) | key (4) | length (8)   little-endian, 28 bytes
 * </pre>
 */
final class ShmRemoteKey implements RemoteKey {

    private static final int MAGIC = 0x314b5246; // "FRK1" little-endian
    private static final int ENCODED_LENGTH = 28;

    final long node;
    final int regionId;
    final int key;
    private final long lengthBytes;

    /**
     * The region file as mapped by the fabric that last resolved this key; one volatile read on the data path. Resolved
     * again once the fabric unmapped the file.
     */
    private volatile Resolution resolution;

    private record Resolution(ShmFabric fabric, MemorySegment file) {}

    ShmRemoteKey(long node, int regionId, int key, long lengthBytes) {
        this.node = node;
        this.regionId = regionId;
        this.key = key;
        this.lengthBytes = lengthBytes;
    }

    /**
     * The target region's file mapped by {@code fabric}, or null if it no longer exists. The file may be unmapped by
     * the time the caller touches it (its owner deregistered it; see {@link PeerNode}).
     */
    MemorySegment resolve(ShmFabric fabric) {
        Resolution current = resolution;
        if (current != null && current.fabric == fabric && SharedMemory.isMapped(current.file)) {
            return current.file;
        }
        PeerNode peer = fabric.peer(node);
        MemorySegment file = peer == null ? null : peer.region(regionId);
        if (file != null) {
            resolution = new Resolution(fabric, file);
        }
        return file;
    }

    @Override
    public long lengthBytes() {
        return lengthBytes;
    }

    @Override
    public byte[] toBytes() {
        return ByteBuffer.allocate(ENCODED_LENGTH)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(MAGIC)
                .putLong(node)
                .putInt(regionId)
                .putInt(key)
                .putLong(lengthBytes)
                .array();
    }

    static ShmRemoteKey fromBytes(byte[] bytes) {
        FaroException.checkArgument(
                bytes != null && bytes.length == ENCODED_LENGTH,
                "not an shm remote key: %s bytes",
                bytes == null ? -1 : bytes.length);
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        FaroException.checkArgument(buffer.getInt() == MAGIC, "not an shm remote key (bad magic)");
        return new ShmRemoteKey(buffer.getLong(), buffer.getInt(), buffer.getInt(), buffer.getLong());
    }

    @Override
    public String toString() {
        return "ShmRemoteKey[node=" + Long.toHexString(node) + ", region=" + regionId + ", length=" + lengthBytes + "]";
    }
}
