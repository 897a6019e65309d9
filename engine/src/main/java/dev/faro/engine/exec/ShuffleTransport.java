package dev.faro.engine.exec;

/**
 * What carries a distributed query's exchanges: the fabric, with one of the eight TODS19 endpoint designs, or the
 * plain TCP socket baseline of TODS19 §7 ({@link dev.faro.shuffle.baseline.TcpShuffleOpener}, 128 KB messages over
 * loopback sockets), the "network upgrade without software changes" that Faro is measured against.
 */
public enum ShuffleTransport {
    /** The fabric's queue pairs, through {@link dev.faro.shuffle.setup.EndpointFactory} and the context's design. */
    FABRIC,
    /** Plain TCP sockets on loopback, authenticated with the cluster secret ({@link ExecutionContext#secret()}); the
     * design is ignored. */
    TCP_SOCKETS
}
