package dev.faro.shuffle.transport;

import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.baseline.TcpShuffleConfig;
import dev.faro.shuffle.baseline.TcpShuffleOpener;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * The TCP socket baseline of TODS19 §7 as an {@link ExchangeTransport}: one authenticated loopback connection per
 * sending thread and destination node, 128 KB messages ({@link TcpShuffleOpener}). Immutable; coordination code.
 */
public final class TcpSocketTransport implements ExchangeTransport {

    private final PeerExchange peers;
    private final SharedSecret secret;
    private final IntFunction<TcpShuffleConfig> config;

    /**
     * @param secret the cluster's secret, which every connection proves (never logged)
     * @param config the configuration for an exchange with the given thread count
     */
    public TcpSocketTransport(PeerExchange peers, SharedSecret secret, IntFunction<TcpShuffleConfig> config) {
        this.peers = Objects.requireNonNull(peers, "peers is null");
        this.secret = Objects.requireNonNull(secret, "secret is null (the TCP baseline authenticates with it)");
        this.config = Objects.requireNonNull(config, "config is null");
    }

    @Override
    public String name() {
        return "TCP sockets";
    }

    @Override
    public PeerExchange peers() {
        return peers;
    }

    @Override
    public ExchangeChannel open(String exchangeName, TransmissionGroups groups, int threads) {
        TcpShuffleConfig exchangeConfig = config.apply(threads);
        return new EndpointChannel(
                TcpShuffleOpener.open(peers, exchangeName, exchangeConfig, groups, secret),
                groups,
                peers.nodeIndex(),
                threads,
                exchangeConfig.stallTimeout(),
                exchangeConfig.progress());
    }
}
