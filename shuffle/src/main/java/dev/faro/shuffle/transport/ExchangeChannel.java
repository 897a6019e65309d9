package dev.faro.shuffle.transport;

/**
 * One node's sides of one open exchange (see the package documentation for the contract). Thread {@code t} of the
 * producing pipeline uses {@link #sender(int) sender(t)}, thread {@code t} of the consuming pipeline
 * {@link #receiver(int) receiver(t)}; both are thread-confined. {@link #close} is called once, by the query's
 * conductor, after every sender finished and every receiver reached its end of stream (or the query failed).
 */
public interface ExchangeChannel extends AutoCloseable {

    /** Whether this node receives anything (false at a gather's other nodes: its receivers end at once). */
    boolean receives();

    /** The send side of producing thread {@code thread}, in [0, threads). */
    ExchangeSender sender(int thread);

    /** The receive side of consuming thread {@code thread}, in [0, threads). */
    ExchangeReceiver receiver(int thread);

    /**
     * The most buffers this node's threads held at once so far (open send buffers plus received buffers not yet
     * released): what the engine's use of the exchange adds to the transport's own buffers. Approximate while threads
     * run.
     */
    int buffersHeldHighWater();

    /** Frees the exchange's resources; the first failure is thrown, later ones attached to it. */
    @Override
    void close();

    /**
     * Frees the exchange's resources after its query failed (call once no thread uses it): a transport whose close
     * waits for its peers to finish their streams gives that up, since the peers' queries failed too. The default is
     * {@link #close}.
     */
    default void abandon() {
        close();
    }
}
