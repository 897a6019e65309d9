package dev.faro.fabric;

/** A Reliable Connection queue pair: connected to exactly one peer queue pair; exactly once, in posting order. */
public non-sealed interface RcQueuePair extends QueuePair {

    /**
     * Connects to the peer (INIT to READY). Both sides connect to each other, after exchanging
     * {@link #address()} bytes. A request that reaches a peer not connected back to this queue pair fails with
     * {@link CompletionStatus#REMOTE_OPERATION_ERROR}.
     *
     * @throws FaroException {@code INVALID_ARGUMENT} if the address is not an RC address of this provider, or the
     *     queue pair is already connected
     */
    void connect(QueuePairAddress peer);

    /** The connected peer, or null before {@link #connect}. */
    QueuePairAddress peer();
}
