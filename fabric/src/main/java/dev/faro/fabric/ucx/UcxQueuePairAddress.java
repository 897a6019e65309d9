package dev.faro.fabric.ucx;

import dev.faro.fabric.AbstractQueuePairAddress;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.QueuePairType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An RC queue pair's address on the {@code ucx} fabric: the node, the queue pair number and the node's UCX worker
 * address (what {@code ucp_ep_create} needs: transports, devices, interface addresses).
 *
 * <pre>
 *  bytes, little-endian:
 *   0: magic "FUA1" (4) | version (1) | type (1: RC 0) | reserved (2)
 *   8: node (8)
 *  16: qpn (4) | worker address length (4)
 *  24: worker address
 * </pre>
 */
final class UcxQueuePairAddress extends AbstractQueuePairAddress {

    static final int MAGIC = 0x31415546; // "FUA1"
    static final byte VERSION = 1;
    private static final int FIXED_LENGTH = 24;

    final byte[] workerAddress;

    UcxQueuePairAddress(long node, int qpn, byte[] workerAddress) {
        super(node, qpn, QueuePairType.RC);
        this.workerAddress = workerAddress;
    }

    @Override
    public byte[] toBytes() {
        return ByteBuffer.allocate(FIXED_LENGTH + workerAddress.length).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(MAGIC).put(VERSION).put((byte) 0).putShort((short) 0).putLong(node()).putInt(queuePairNumber())
                .putInt(workerAddress.length).put(workerAddress).array();
    }

    static UcxQueuePairAddress fromBytes(byte[] bytes) {
        FaroException.checkArgument(bytes != null && bytes.length > FIXED_LENGTH,
                "not a ucx queue pair address: %s bytes", bytes == null ? -1 : bytes.length);
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        FaroException.checkArgument(buffer.getInt() == MAGIC, "not a ucx queue pair address (bad magic)");
        FaroException.checkArgument(buffer.get() == VERSION, "ucx queue pair address of an unknown version");
        FaroException.checkArgument(buffer.get() == 0, "not an RC address: the ucx fabric has RC queue pairs only");
        buffer.getShort();
        long node = buffer.getLong();
        int qpn = buffer.getInt();
        int length = buffer.getInt();
        FaroException.checkArgument(node != 0 && qpn > 0, "ucx queue pair address with a zero node or qpn");
        FaroException.checkArgument(length == buffer.remaining(), "ucx queue pair address of a wrong length");
        byte[] worker = new byte[length];
        buffer.get(worker);
        return new UcxQueuePairAddress(node, qpn, worker);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof UcxQueuePairAddress that && sameQueuePair(that)
                && Arrays.equals(workerAddress, that.workerAddress);
    }
}
