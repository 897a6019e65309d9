package dev.faro.shuffle.transport;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.EndpointSets;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * One of the eight TODS19 endpoint designs over the fabric as an {@link ExchangeTransport}: each exchange has the
 * design's endpoints ({@link EndpointFactory}, one per node and side with SE, one per thread with ME) and moves
 * buffers with ACQUIRE / PUTDATA / GETDATA / RELEASE. With the node's {@link EndpointSets}, an exchange takes the
 * endpoints an earlier exchange of the same shape ended with, reset, instead of opening new ones. Immutable;
 * coordination code.
 */
public final class DesignTransport implements ExchangeTransport {

    private final Fabric fabric;
    private final PeerExchange peers;
    private final EndpointDesign design;
    private final IntFunction<EndpointConfig> config;
    private final EndpointSets sets;

    /**
     * @param config the endpoint configuration for an exchange with the given thread count (its design must be
     *     {@code design}), e.g. {@code threads -> EndpointConfig.defaults(design, threads).withStallTimeout(...)}
     */
    public DesignTransport(
            Fabric fabric, PeerExchange peers, EndpointDesign design, IntFunction<EndpointConfig> config) {
        this(fabric, peers, design, config, null);
    }

    /**
     * @param sets the node's endpoint sets kept across exchanges and queries, or null to open every exchange's
     *     endpoints anew (used by designs that reset their endpoints, see {@link EndpointSets#reusable})
     */
    public DesignTransport(
            Fabric fabric,
            PeerExchange peers,
            EndpointDesign design,
            IntFunction<EndpointConfig> config,
            EndpointSets sets) {
        this.fabric = Objects.requireNonNull(fabric, "fabric is null");
        this.peers = Objects.requireNonNull(peers, "peers is null");
        this.design = Objects.requireNonNull(design, "design is null");
        this.config = Objects.requireNonNull(config, "config is null");
        this.sets = sets;
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
        EndpointConfig exchangeConfig = config(threads);
        if (sets != null && EndpointSets.reusable(exchangeConfig)) {
            EndpointSets.Lease lease = sets.open(fabric, peers, exchangeName, exchangeConfig, groups);
            return new EndpointChannel(
                    lease.endpoints(),
                    lease::close,
                    groups,
                    peers.nodeIndex(),
                    threads,
                    exchangeConfig.stallTimeout(),
                    exchangeConfig.progress());
        }
        return new EndpointChannel(
                EndpointFactory.open(fabric, peers, exchangeName, exchangeConfig, groups),
                groups,
                peers.nodeIndex(),
                threads,
                exchangeConfig.stallTimeout(),
                exchangeConfig.progress());
    }
}
