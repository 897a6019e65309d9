package dev.faro.hyper;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeTransport;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * VLDB16's decoupled exchange over the node's communication multiplexer as an {@link ExchangeTransport}: the
 * transport {@value #NAME}. One instance per query and node; the {@link Multiplexer} (network thread, queue pairs,
 * message pool) is the node's and outlives every query.
 *
 * <p>Open: two gathers over the query's {@link PeerExchange}. The first publishes this node's id for the exchange and
 * its multiplexer's connection offer; each node connects its queue pair to every peer not yet connected (the first
 * exchange a pair of nodes shares connects them, later ones find them connected) and routes each peer's id to the
 * exchange. The second ensures every node did so before any node sends. Coordination code; immutable, thread-safe.
 */
public final class HyperTransport implements ExchangeTransport {

    /** The transport's name in reports, {@code faro bench tpch --transports} and errors. */
    public static final String NAME = "hyper";

    private final Multiplexer multiplexer;
    private final Fabric fabric;
    private final PeerExchange peers;
    private final Duration stallTimeout;
    private final ProgressSignal progress;

    /**
     * @param multiplexer this node's multiplexer, started on {@code fabric}
     * @param stallTimeout how long a wait may see no progress anywhere in the query before it fails the exchange
     * @param progress the query's progress signal (or {@link ProgressSignal#NONE})
     */
    public HyperTransport(
            Multiplexer multiplexer,
            Fabric fabric,
            PeerExchange peers,
            Duration stallTimeout,
            ProgressSignal progress) {
        this.multiplexer = Objects.requireNonNull(multiplexer, "multiplexer is null");
        this.fabric = Objects.requireNonNull(fabric, "fabric is null");
        this.peers = Objects.requireNonNull(peers, "peers is null");
        this.stallTimeout = Objects.requireNonNull(stallTimeout, "stallTimeout is null");
        this.progress = Objects.requireNonNull(progress, "progress is null");
        if (peers.nodeIndex() != multiplexer.self() || peers.nodes() != multiplexer.nodes()) {
            throw new IllegalArgumentException("the query's nodes differ from the multiplexer's: node "
                    + peers.nodeIndex() + " of " + peers.nodes() + " vs " + multiplexer.self() + " of "
                    + multiplexer.nodes());
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PeerExchange peers() {
        return peers;
    }

    public Multiplexer multiplexer() {
        return multiplexer;
    }

    @Override
    public ExchangeChannel open(String exchangeName, TransmissionGroups groups, int threads) {
        Objects.requireNonNull(exchangeName, "exchangeName is null");
        Objects.requireNonNull(groups, "groups is null");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: threads=" + threads);
        }
        int self = multiplexer.self();
        int nodes = multiplexer.nodes();
        for (int peer = 0; peer < nodes; peer++) {
            multiplexer.checkPeer(peer); // a connection that failed fails the open at once, before any gather
        }
        DecoupledExchange exchange =
                new DecoupledExchange(multiplexer, exchangeName, groups, threads, stallTimeout, progress);
        try {
            byte[] offer = multiplexer.offer();
            byte[] local = ByteBuffer.allocate(Integer.BYTES + offer.length)
                    .putInt(exchange.id())
                    .put(offer)
                    .array();
            byte[][] all = peers.allGather(exchangeName + "/hyper/open", local);
            for (int peer = 0; peer < nodes; peer++) {
                if (peer == self) {
                    continue;
                }
                multiplexer.checkPeer(peer);
                ByteBuffer from = ByteBuffer.wrap(all[peer]);
                int peerId = from.getInt();
                multiplexer.connect(peer, Arrays.copyOfRange(all[peer], Integer.BYTES, all[peer].length), fabric);
                exchange.mapPeer(peer, peerId);
            }
            peers.allGather(exchangeName + "/hyper/ready", new byte[0]);
            return exchange;
        } catch (RuntimeException e) {
            exchange.close();
            if (e instanceof FaroException) {
                throw e;
            }
            throw new FaroException(
                    FaroException.Category.NETWORK, "hyper: opening exchange " + exchangeName + " failed: " + e, e);
        }
    }
}
