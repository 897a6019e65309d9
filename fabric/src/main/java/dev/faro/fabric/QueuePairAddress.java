package dev.faro.fabric;

/**
 * Where a queue pair can be reached: the verbs (LID, QPN) pair. {@link #toBytes()} travels over a bootstrap channel;
 * the receiving side turns it back into an address with {@link Fabric#importAddress(byte[])} once and reuses it (as
 * the {@link RcQueuePair#connect} argument or a UD {@link WorkRequest#destination}).
 */
public interface QueuePairAddress {

    /** A self-describing encoding to hand to peers. */
    byte[] toBytes();

    /** The fabric node the queue pair lives on (unique per open fabric, non-zero). */
    long node();

    /** The queue pair number, unique on its node. */
    int queuePairNumber();

    QueuePairType type();
}
