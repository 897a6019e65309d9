package dev.faro.fabric.spi;

import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairType;

/**
 * What every provider's {@link QueuePairAddress} holds the same way: the node, the queue pair number and the type,
 * their getters, hash and printed form. For providers (net, shm, ucx): a subclass adds how the queue pair is reached
 * (a socket address, mapped files, a UCX worker address), its encoding and its {@code equals}, built on
 * {@link #sameQueuePair}.
 */
public abstract class AbstractQueuePairAddress implements QueuePairAddress {

    private final long node;
    private final int qpn;
    private final QueuePairType type;

    protected AbstractQueuePairAddress(long node, int qpn, QueuePairType type) {
        this.node = node;
        this.qpn = qpn;
        this.type = type;
    }

    @Override
    public final long node() {
        return node;
    }

    @Override
    public final int queuePairNumber() {
        return qpn;
    }

    @Override
    public final QueuePairType type() {
        return type;
    }

    /** Whether {@code that} names the same node, queue pair number and type. */
    protected final boolean sameQueuePair(AbstractQueuePairAddress that) {
        return node == that.node && qpn == that.qpn && type == that.type;
    }

    @Override
    public final int hashCode() {
        return Long.hashCode(node) * 31 + qpn;
    }

    /** {@code TYPE@node/qpn}, the node in hex. */
    @Override
    public String toString() {
        return type + "@" + Long.toHexString(node) + "/" + qpn;
    }
}
