package dev.faro.fabric.ucx;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.QueuePairType;
import dev.faro.fabric.spi.AbstractQueuePairAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An RC queue pair's address on the {@code ucx} fabric: the node, the queue pair number, the node's host
 * ({@link UcxHost}: whether shared memory reaches it) and the node's UCX worker address (what {@code ucp_ep_create}
 * needs: transports, devices, interface addresses).
 *
 * <pre>
 *  bytes, little-endian:
 *   0: magic "FUA1" (4) | version (1: 2) | type (1: RC 0) | reserved (2)
 *   8: node (8)
 *  16: qpn (4) | worker address length (4)
 *  24: host (8)
 *  32: worker address
 * </pre>
 */
final class UcxQueuePairAddress extends AbstractQueuePairAddress {

    static final int MAGIC = 0x31415546; // "FUA1"
    static final byte VERSION = 2;
    private static final int FIXED_LENGTH = 32;

    /** The node's host ({@link UcxHost#ID} there). */
    final long host;

    final byte[] workerAddress;

    UcxQueuePairAddress(long node, int qpn, long host, byte[] workerAddress) {
        super(node, qpn, QueuePairType.RC);
        this.host = host;
        this.workerAddress = workerAddress;
    }

    @Override
    public byte[] toBytes() {
        return ByteBuffer.allocate(FIXED_LENGTH + workerAddress.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(MAGIC)
                .put(VERSION)
                .put((byte) 0)
                .putShort((short) 0)
                .putLong(node())
                .putInt(queuePairNumber())
                .putInt(workerAddress.length)
                .putLong(host)
                .put(workerAddress)
                .array();
    }

    static UcxQueuePairAddress fromBytes(byte[] bytes) {
        FaroException.checkArgument(
                bytes != null && bytes.length > FIXED_LENGTH,
                "not a ucx queue pair address: %s bytes",
                bytes == null ? -1 : bytes.length);
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        FaroException.checkArgument(buffer.getInt() == MAGIC, "not a ucx queue pair address (bad magic)");
        FaroException.checkArgument(buffer.get() == VERSION, "ucx queue pair address of an unknown version");
        FaroException.checkArgument(buffer.get() == 0, "not an RC address: the ucx fabric has RC queue pairs only");
        buffer.getShort();
        long node = buffer.getLong();
        int qpn = buffer.getInt();
        int length = buffer.getInt();
        long host = buffer.getLong();
        FaroException.checkArgument(node != 0 && qpn > 0, "ucx queue pair address with a zero node or qpn");
        FaroException.checkArgument(length == buffer.remaining(), "ucx queue pair address of a wrong length");
        byte[] worker = new byte[length];
        buffer.get(worker);
        return new UcxQueuePairAddress(node, qpn, host, worker);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof UcxQueuePairAddress that
                && sameQueuePair(that)
                && host == that.host
                && Arrays.equals(workerAddress, that.workerAddress);
    }
}
