package dev.faro.cluster.tpch;

import dev.faro.engine.tpch.Placement;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.Objects;

/**
 * What a {@link TpchSession} runs: the database (scale factor, placement), the engine threads per node, and what
 * carries the exchanges: the fabric with a shuffle design, or the TCP socket baseline (the design is then ignored).
 */
public record TpchSettings(
        double scaleFactor, Placement placement, int threads, EndpointDesign design, ShuffleTransport transport) {

    /**
     * At most this many engine threads per node: each thread has its own send buffers per exchange and destination;
     * at SF 0.01 on 2 nodes, 1,000 threads ran a worker out of memory and 64 made a query time out on 2 cores, while
     * 32 ran every query.
     */
    public static final int MAX_THREADS = 32;

    public TpchSettings(double scaleFactor, Placement placement, int threads, EndpointDesign design) {
        this(scaleFactor, placement, threads, design, ShuffleTransport.FABRIC);
    }

    public TpchSettings {
        if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
            throw new IllegalArgumentException("the scale factor must be positive, got " + scaleFactor);
        }
        Objects.requireNonNull(placement, "placement is null");
        Objects.requireNonNull(design, "design is null");
        Objects.requireNonNull(transport, "transport is null");
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException(
                    "threads per node must be between 1 and " + MAX_THREADS + ", got " + threads);
        }
    }

    /** The exchanges over the fabric with {@code value}. */
    public TpchSettings withDesign(EndpointDesign value) {
        return new TpchSettings(scaleFactor, placement, threads, value, ShuffleTransport.FABRIC);
    }

    /** The exchanges over the TCP socket baseline. */
    public TpchSettings withTcpSockets() {
        return new TpchSettings(scaleFactor, placement, threads, design, ShuffleTransport.TCP_SOCKETS);
    }

    /** What carries the exchanges, for people: the design's paper name, or {@code TCP sockets}. */
    public String exchangeName() {
        return transport == ShuffleTransport.TCP_SOCKETS ? "TCP sockets" : design.paperName();
    }
}
