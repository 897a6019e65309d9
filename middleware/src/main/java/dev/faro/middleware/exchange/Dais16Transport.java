package dev.faro.middleware.exchange;

import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeTransport;
import java.time.Duration;
import java.util.Objects;

/**
 * DAIS16's middleware as an {@link ExchangeTransport}: every exchange of a query (and of the queries after it) goes
 * through the node's one {@link NodeMiddleware}, so all of them share the rings of each worker pair and the one
 * connection of each node pair, told apart by an operator id per exchange. Engine thread {@code t} sends as, and
 * receives as, middleware worker {@code t}; its buffers go to worker {@code t} of each destination node.
 *
 * <p>Immutable; coordination code. One instance per query at a node.
 */
public final class Dais16Transport implements ExchangeTransport {

    /** The transport's name in reports and on {@code --transports}: the middleware on the fabric. */
    public static final String NAME = "DAIS16";
    /** The same over the paper's NIO sockets baseline. */
    public static final String NIO_NAME = "DAIS16/NIO";

    private final String name;
    private final NodeMiddleware node;
    private final PeerExchange peers;
    private final Duration stallTimeout;
    private final ProgressSignal progress;

    /**
     * @param node this node's middleware (node lifetime, shared by every query)
     * @param peers the query's nodes
     * @param stallTimeout how long a wait may see no progress anywhere in the query before it fails
     * @param progress the query's progress signal
     */
    public Dais16Transport(NodeMiddleware node, PeerExchange peers, Duration stallTimeout, ProgressSignal progress) {
        this(NAME, node, peers, stallTimeout, progress);
    }

    /** As above, named {@code name} in reports ({@link #NAME} or {@link #NIO_NAME}, after the node's backend). */
    public Dais16Transport(
            String name, NodeMiddleware node, PeerExchange peers, Duration stallTimeout, ProgressSignal progress) {
        this.name = Objects.requireNonNull(name, "name is null");
        this.node = Objects.requireNonNull(node, "node is null");
        this.peers = Objects.requireNonNull(peers, "peers is null");
        this.stallTimeout = Objects.requireNonNull(stallTimeout, "stallTimeout is null");
        this.progress = Objects.requireNonNull(progress, "progress is null");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PeerExchange peers() {
        return peers;
    }

    @Override
    public ExchangeChannel open(String exchangeName, TransmissionGroups groups, int threads) {
        Objects.requireNonNull(exchangeName, "exchangeName is null");
        Objects.requireNonNull(groups, "groups is null");
        if (groups.nodes() != peers.nodes()) {
            throw new IllegalArgumentException(
                    "groups span " + groups.nodes() + " nodes, the query " + peers.nodes() + ": " + exchangeName);
        }
        NodeMiddleware.Lease lease = node.open(peers, exchangeName, threads, this);
        return new MiddlewareChannel(
                node, lease, exchangeName, groups, peers.nodeIndex(), threads, stallTimeout, progress);
    }
}
