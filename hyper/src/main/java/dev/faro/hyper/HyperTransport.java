package dev.faro.hyper;

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
 * <p>Open: one gather over the query's {@link PeerExchange} in steady state (as the designs' endpoint sets): it
 * publishes this node's id for the exchange, whether all of its multiplexer's connections are up, and its connection
 * offer (incarnation, queue pair addresses, credit key). When every node's are up, each routes its peers' ids to the
 * exchange and may send at once; a message that reaches a node before it routed the exchange is held by its network
 * thread until then ({@link ExchangeTable#isEarly}). Otherwise (the first exchange after a start, a replaced worker, a
 * failed connection) each node replaces a queue pair still connected to a previous incarnation of a peer or whose
 * connection failed, routes the ids, and a second gather ensures every node did so and says whether some node has a
 * queue pair to connect; then each node connects from the second gather's offers and a third gather waits for all.
 * Coordination code; immutable, thread-safe.
 */
public final class HyperTransport implements ExchangeTransport {

    /** The transport's name in reports, {@code faro bench tpch --transports} and errors. */
    public static final String NAME = "hyper";

    private final Multiplexer multiplexer;
    private final PeerExchange peers;
    private final Duration stallTimeout;
    private final ProgressSignal progress;

    /**
     * @param multiplexer this node's multiplexer
     * @param stallTimeout how long a wait may see no progress anywhere in the query before it fails the exchange
     * @param progress the query's progress signal (or {@link ProgressSignal#NONE})
     */
    public HyperTransport(Multiplexer multiplexer, PeerExchange peers, Duration stallTimeout, ProgressSignal progress) {
        this.multiplexer = Objects.requireNonNull(multiplexer, "multiplexer is null");
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

    private static byte[] withInts(int first, int second, byte[] bytes) {
        return ByteBuffer.allocate(2 * Integer.BYTES + bytes.length)
                .putInt(first)
                .putInt(second)
                .put(bytes)
                .array();
    }

    private static byte[] offer(byte[] contribution) {
        return Arrays.copyOfRange(contribution, 2 * Integer.BYTES, contribution.length);
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
        DecoupledExchange exchange =
                new DecoupledExchange(multiplexer, exchangeName, groups, threads, stallTimeout, progress);
        try {
            // 1. ids, whether the node's connections are all up, and offers
            boolean ready = multiplexer.allConnectedAndHealthy();
            byte[][] opened = peers.allGather(
                    exchangeName + "/hyper/open", withInts(exchange.id(), ready ? 1 : 0, multiplexer.offer()));
            boolean allReady = true;
            for (byte[] contribution : opened) {
                allReady &= ByteBuffer.wrap(contribution).getInt(Integer.BYTES) == 1;
            }
            if (allReady) {
                // every node's connections are up: nothing is stale (a replaced peer would not be ready), so route
                // the peers' ids and go; a peer's message that arrives before this map is held until it
                for (int peer = 0; peer < nodes; peer++) {
                    if (peer != self) {
                        exchange.mapPeer(peer, ByteBuffer.wrap(opened[peer]).getInt());
                    }
                }
                multiplexer.wake();
            } else {
                connect(exchange, exchangeName, opened);
            }
            for (int peer = 0; peer < nodes; peer++) {
                multiplexer.checkPeer(peer);
            }
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

    /**
     * The open's slow path, after a start or a failure: a queue pair connected to a previous incarnation of a peer (its
     * worker was replaced) or whose connection failed is replaced by a fresh one before the exchange is routed; a
     * second gather ensures every node has routed it and carries fresh offers; each node connects from them and a
     * third gather waits for all.
     */
    private void connect(DecoupledExchange exchange, String exchangeName, byte[][] opened) {
        int self = multiplexer.self();
        int nodes = multiplexer.nodes();
        for (int peer = 0; peer < nodes; peer++) {
            if (peer != self && multiplexer.isStale(peer, offer(opened[peer]))) {
                multiplexer.replaceQueuePair(peer);
            }
        }
        boolean allConnected = true;
        for (int peer = 0; peer < nodes; peer++) {
            if (peer != self) {
                exchange.mapPeer(peer, ByteBuffer.wrap(opened[peer]).getInt());
                allConnected &= multiplexer.isConnected(peer);
            }
        }
        byte[][] ready =
                peers.allGather(exchangeName + "/hyper/ready", withInts(allConnected ? 1 : 0, 0, multiplexer.offer()));
        boolean connecting = false;
        for (byte[] contribution : ready) {
            connecting |= ByteBuffer.wrap(contribution).getInt() == 0;
        }
        if (connecting) {
            for (int peer = 0; peer < nodes; peer++) {
                if (peer != self) {
                    multiplexer.connect(peer, offer(ready[peer]));
                }
            }
            peers.allGather(exchangeName + "/hyper/connected", new byte[0]);
        }
    }
}
