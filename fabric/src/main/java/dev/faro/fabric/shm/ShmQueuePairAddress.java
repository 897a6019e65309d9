package dev.faro.fabric.shm;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.QueuePairType;
import dev.faro.fabric.spi.AbstractQueuePairAddress;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A queue pair's address on the {@code shm} fabric.
 *
 * <pre>
 *  bytes: magic "FQA1" (4) | node (8) | qpn (4) | type (4)   little-endian, 20 bytes
 * </pre>
 */
final class ShmQueuePairAddress extends AbstractQueuePairAddress {

    private static final int MAGIC = 0x31415146; // "FQA1" little-endian
    private static final int ENCODED_LENGTH = 20;

    /** The target's files as mapped by the fabric that last resolved this address; resolved again once unmapped. */
    private volatile Target target;

    /** A resolved destination: the node, its queue pair file and the file of that queue pair's receive CQ. */
    record Target(ShmFabric fabric, PeerNode peer, MemorySegment queuePair, MemorySegment receiveCompletionQueue) {}

    ShmQueuePairAddress(long node, int qpn, QueuePairType type) {
        super(node, qpn, type);
    }

    /**
     * The destination's files mapped by {@code fabric}, or null if the queue pair does not exist. The files may be
     * unmapped by the time the caller touches them (their owner closed them; see {@link PeerNode}).
     */
    Target resolve(ShmFabric fabric) {
        Target current = target;
        if (current != null
                && current.fabric == fabric
                && SharedMemory.isMapped(current.queuePair)
                && SharedMemory.isMapped(current.receiveCompletionQueue)) {
            return current;
        }
        PeerNode peer = fabric.peer(node());
        if (peer == null) {
            return null;
        }
        try {
            MemorySegment queuePair = peer.queuePair(queuePairNumber());
            if (queuePair == null || !QueuePairDescriptor.isValid(queuePair)) {
                return null;
            }
            MemorySegment receiveCq = peer.completionQueue(QueuePairDescriptor.receiveCompletionQueue(queuePair));
            if (receiveCq == null) {
                return null;
            }
            Target resolved = new Target(fabric, peer, queuePair, receiveCq);
            target = resolved;
            return resolved;
        } catch (IllegalStateException unmapped) {
            return null; // the queue pair's file was unmapped as we read it: its owner closed it (see PeerNode)
        }
    }

    @Override
    public byte[] toBytes() {
        return ByteBuffer.allocate(ENCODED_LENGTH)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(MAGIC)
                .putLong(node())
                .putInt(queuePairNumber())
                .putInt(type().ordinal())
                .array();
    }

    static ShmQueuePairAddress fromBytes(byte[] bytes) {
        FaroException.checkArgument(
                bytes != null && bytes.length == ENCODED_LENGTH,
                "not an shm queue pair address: %s bytes",
                bytes == null ? -1 : bytes.length);
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        FaroException.checkArgument(buffer.getInt() == MAGIC, "not an shm queue pair address (bad magic)");
        long node = buffer.getLong();
        int qpn = buffer.getInt();
        int type = buffer.getInt();
        FaroException.checkArgument(type >= 0 && type < QueuePairType.values().length, "bad queue pair type %d", type);
        return new ShmQueuePairAddress(node, qpn, QueuePairType.values()[type]);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ShmQueuePairAddress that && sameQueuePair(that);
    }
}
