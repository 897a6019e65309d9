package dev.faro.shuffle.transport;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.setup.EndpointFactory;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * One of the eight TODS19 endpoint designs over the fabric as an {@link ExchangeTransport}: each exchange opens the
 * design's endpoints ({@link EndpointFactory}, one per node and side with SE, one per thread with ME) and moves
 * buffers with ACQUIRE / PUTDATA / GETDATA / RELEASE. Immutable; coordination code.
 */
public final class DesignTransport implements ExchangeTransport {

    private final Fabric fabric;
    private final PeerExchange peers;
    private final EndpointDesign design;
    private final IntFunction<EndpointConfig> config;

    /**
     * @param config the endpoint configuration for an exchange with the given thread count (its design must be
     *     {@code design}), e.g. {@code threads -> EndpointConfig.defaults(design, threads).withStallTimeout(...)}
     */
    public DesignTransport(
            Fabric fabric, PeerExchange peers, EndpointDesign design, IntFunction<EndpointConfig> config) {
        this.fabric = Objects.requireNonNull(fabric, "fabric is null");
        this.peers = Objects.requireNonNull(peers, "peers is null");
        this.design = Objects.requireNonNull(design, "design is null");
        this.config = Objects.requireNonNull(config, "config is null");
    }

    /** The design with its default configuration. */
    public DesignTransport(Fabric fabric, PeerExchange peers, EndpointDesign design) {
        this(fabric, peers, design, threads -> EndpointConfig.defaults(design, threads));
    }

    public EndpointDesign design() {
        return design;
    }

    /** The configuration an exchange with {@code threads} threads gets. */
    public EndpointConfig config(int threads) {
        EndpointConfig result = config.apply(threads);
        if (result.design() != design) {
            throw new IllegalArgumentException(
                    "the configuration's design differs: transport=" + design + " config=" + result.design());
        }
        return result;
    }

    @Override
    public String name() {
        return design.paperName();
    }

    @Override
    public PeerExchange peers() {
        return peers;
    }

    @Override
    public ExchangeChannel open(String exchangeName, TransmissionGroups groups, int threads) {
        return new EndpointChannel(
                EndpointFactory.open(fabric, peers, exchangeName, config(threads), groups),
                groups,
                peers.nodeIndex(),
                threads);
    }
}
