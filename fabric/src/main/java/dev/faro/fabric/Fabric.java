package dev.faro.fabric;

import java.util.Set;

/**
 * One node of a verbs-like fabric: the owner of registered memory, completion queues and queue pairs. Open one with
 * {@link Fabrics#open(FabricConfig)}. All methods are thread-safe.
 *
 * <p>Peers find each other by exchanging {@link QueuePairAddress} and {@link RemoteKey} bytes over a bootstrap
 * channel of the caller's choice; the fabric itself has no name service.
 *
 * <p>Closing the fabric closes everything it created; peers then see error completions for requests that involve
 * this node.
 */
public interface Fabric extends AutoCloseable {

    /** The provider's name, e.g. {@code shm}. */
    String provider();

    /** The node id that appears in this node's addresses and in receive completions at peers (non-zero). */
    long node();

    /** The human-readable node name from the configuration. */
    String nodeName();

    FabricCapabilities capabilities();

    /** Allocates {@code lengthBytes} of zeroed memory and registers it with the given rights. */
    MemoryRegion register(long lengthBytes, Set<Access> access);

    /** A completion queue holding up to {@code capacity} completions. */
    CompletionQueue createCompletionQueue(int capacity);

    /** A Reliable Connection queue pair in state {@link QueuePairState#INIT}; {@link RcQueuePair#connect} it. */
    RcQueuePair createRcQueuePair(QueuePairConfig config);

    /**
     * An Unreliable Datagram queue pair, ready at once.
     *
     * @throws FaroException {@link FaroException.Category#NOT_SUPPORTED} on providers without UD
     */
    UdQueuePair createUdQueuePair(QueuePairConfig config);

    /** Decodes a peer's {@link RemoteKey#toBytes()}; reuse the result for every request. */
    RemoteKey importRemoteKey(byte[] bytes);

    /** Decodes a peer's {@link QueuePairAddress#toBytes()}; reuse the result for every request. */
    QueuePairAddress importAddress(byte[] bytes);

    FabricCounters counters();

    /** Closes every queue pair, completion queue and region of this node and releases shared resources. Idempotent. */
    @Override
    void close();
}
