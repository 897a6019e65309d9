package dev.faro.fabric;

/**
 * A send queue and a receive queue, bound to completion queues. Posting is thread-safe: several threads may post on
 * one queue pair, and requests are processed in the order their posts returned.
 */
public sealed interface QueuePair extends AutoCloseable permits RcQueuePair, UdQueuePair {

    /** Unique on this node; appears in completions. */
    int queuePairNumber();

    QueuePairType type();

    QueuePairState state();

    /** The address peers use: {@link RcQueuePair#connect} for RC, {@link WorkRequest#destination} for UD. */
    QueuePairAddress address();

    /**
     * Posts a request on the send queue. Arguments that are wrong locally (unregistered or closed region, bounds,
     * missing local right, a UD payload above the MTU, an opcode the service lacks, inline data above the limit) throw
     * {@link FaroException.Category#INVALID_ARGUMENT} and post nothing. A full send queue throws
     * {@link FaroException.Category#QUEUE_FULL}; a closed queue pair {@link FaroException.Category#CLOSED}. Failures
     * known only at the target (key, remote bounds and rights, a missing receive) come back as error completions.
     * On a queue pair in {@link QueuePairState#ERROR} the request completes with {@link CompletionStatus#FLUSHED}.
     */
    void postSend(WorkRequest request);

    /**
     * Posts a receive buffer: {@code length} bytes at {@code offset} in {@code region}, which needs
     * {@link Access#LOCAL_WRITE}. A full receive queue throws {@link FaroException.Category#QUEUE_FULL}.
     */
    void postReceive(long requestId, MemoryRegion region, long offset, int length);

    /** Receives posted and not yet consumed (exact for the owner; approximate while peers are sending). */
    int postedReceives();

    int sendQueueDepth();

    int receiveQueueDepth();

    /** Closes the queue pair; requests still outstanding are dropped without completions. Idempotent. */
    @Override
    void close();
}
