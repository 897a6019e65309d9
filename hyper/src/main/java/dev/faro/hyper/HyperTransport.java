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
 * <p>Open: gathers over the query's {@link PeerExchange}. The first publishes this node's id for the exchange and
 * its multiplexer's connection offer (incarnation, queue pair addresses, credit key); each node replaces a queue pair
 * still connected to a previous incarnation of a peer (a replaced worker) or whose connection failed, and routes each
 * peer's id to the exchange. The second ensures every node did so before any node sends, and says whether some node
 * has a queue pair to connect; only then (the first exchange after a start or a replacement) each node connects from
 * the second gather's offers and a third gather waits for all. Coordination code; immutable, thread-safe.
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

    private static byte[] withInt(int value, byte[] bytes) {
        return ByteBuffer.allocate(Integer.BYTES + bytes.length)
                .putInt(value)
                .put(bytes)
                .array();
    }

    private static byte[] offer(byte[] contribution) {
        return Arrays.copyOfRange(contribution, Integer.BYTES, contribution.length);
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
            // 1. ids and offers; a queue pair connected to a previous incarnation of a peer (its worker was
            // replaced) or whose connection failed is replaced by a fresh one, before this exchange is routed
            byte[][] opened =
                    peers.allGather(exchangeName + "/hyper/open", withInt(exchange.id(), multiplexer.offer()));
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
            // 2. every node has routed the exchange; fresh offers where some node has a queue pair to connect
            byte[][] ready =
                    peers.allGather(exchangeName + "/hyper/ready", withInt(allConnected ? 1 : 0, multiplexer.offer()));
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
                // 3. every node connected before any node sends
                peers.allGather(exchangeName + "/hyper/connected", new byte[0]);
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
}
