package dev.faro.cluster.tpch;

/**
 * Which kind of {@link dev.faro.shuffle.transport.ExchangeTransport} carries a distributed query's exchanges: the
 * fabric, with one of the eight TODS19 endpoint designs, or the plain TCP socket baseline of TODS19 §7
 * ({@link dev.faro.shuffle.transport.TcpSocketTransport}, 128 KB messages over loopback sockets), the "network upgrade
 * without software changes" that Faro is measured against. Each worker builds the transport itself ({@link
 * QueryHandler}); the engine sees only the transport.
 */
public enum ShuffleTransport {
    /** The fabric's queue pairs, with the task's design ({@link dev.faro.shuffle.transport.DesignTransport}). */
    FABRIC,
    /** Plain TCP sockets on loopback, authenticated with the cluster secret; the design is ignored. */
    TCP_SOCKETS
}
