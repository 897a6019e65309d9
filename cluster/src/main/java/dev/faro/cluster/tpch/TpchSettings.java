package dev.faro.cluster.tpch;

import dev.faro.engine.tpch.Placement;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.transport.BuiltInTransports;
import dev.faro.shuffle.transport.ExchangeTransports;
import java.util.Objects;

/**
 * What a {@link TpchSession} runs: the database (scale factor, placement), the engine threads per node, and the
 * exchange transport that carries the exchanges (an {@link ExchangeTransports} name: a shuffle design such as
 * {@code MESQ/SR}, {@code TCP sockets}, or any transport another module registers).
 *
 * @param transport the transport's canonical name (any form {@link ExchangeTransports#resolve} takes is accepted)
 */
public record TpchSettings(double scaleFactor, Placement placement, int threads, String transport) {

    /**
     * At most this many engine threads per node: each thread has its own send buffers per exchange and destination;
     * at SF 0.01 on 2 nodes, 1,000 threads ran a worker out of memory and 64 made a query time out on 2 cores, while
     * 32 ran every query.
     */
    public static final int MAX_THREADS = 32;

    /** The exchanges over the fabric with {@code design}. */
    public TpchSettings(double scaleFactor, Placement placement, int threads, EndpointDesign design) {
        this(scaleFactor, placement, threads, design.paperName());
    }

    public TpchSettings {
        if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
            throw new IllegalArgumentException("the scale factor must be positive, got " + scaleFactor);
        }
        Objects.requireNonNull(placement, "placement is null");
        transport = ExchangeTransports.resolve(Objects.requireNonNull(transport, "transport is null"));
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException(
                    "threads per node must be between 1 and " + MAX_THREADS + ", got " + threads);
        }
    }

    /** The exchanges over the fabric with {@code value}. */
    public TpchSettings withDesign(EndpointDesign value) {
        return withTransport(value.paperName());
    }

    /** The exchanges over the TCP socket baseline. */
    public TpchSettings withTcpSockets() {
        return withTransport(BuiltInTransports.TCP);
    }

    /**
     * The exchanges over the transport {@code name} (any form {@link ExchangeTransports#resolve} takes).
     *
     * @throws IllegalArgumentException naming the known transports, for an unknown one
     */
    public TpchSettings withTransport(String name) {
        return new TpchSettings(scaleFactor, placement, threads, name);
    }
}
