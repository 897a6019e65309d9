package dev.faro.shuffle.transport;

import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.TransmissionGroups;

/**
 * A way to move one node's share of an exchange to the other nodes: the eight TODS19 designs over the fabric, the
 * TCP socket baseline, and later systems (a multiplexer, a middleware, a switch). What a transport must provide is
 * described in the package documentation. Coordination code; thread-safe.
 */
public interface ExchangeTransport {

    /** The transport's name in results and errors, e.g. "MESQ/SR" or "TCP sockets". */
    String name();

    /**
     * The bootstrap channel of the query's nodes that the transport opens its exchanges through; the engine also
     * uses it to agree on a query's outcome (every node learns whether any failed).
     */
    PeerExchange peers();

    /** This node's index, in [0, {@link #nodeCount()}). */
    default int nodeIndex() {
        return peers().nodeIndex();
    }

    default int nodeCount() {
        return peers().nodes();
    }

    /**
     * Opens this node's send and receive sides of one exchange. Collective: every node opens the same exchanges, with
     * the same names and groups, in the same order.
     *
     * @param exchangeName unique per exchange of a query (the same on every node)
     * @param groups where each group's buffers go (repartition: one singleton group per node)
     * @param threads the threads that will send ({@link ExchangeChannel#sender(int)}) and receive
     *     ({@link ExchangeChannel#receiver(int)}) at this node
     * @throws dev.faro.fabric.FaroException {@code NETWORK} or {@code TIMEOUT} when a node cannot be reached
     */
    ExchangeChannel open(String exchangeName, TransmissionGroups groups, int threads);

    /**
     * The parallel units per node of this transport's exchanges with {@code threads} threads per node (VLDB16 §3.1):
     * 1 when any thread of a node may consume any of the node's buffers (a decoupled exchange, and every transport
     * whose groups are nodes); {@code threads} for a classic exchange, whose every thread is a unit with its own
     * partition. With u units per node a repartition hashes rows into nodes·u groups, group g going to node g / u
     * and there to unit g mod u.
     */
    default int unitsPerNode(int threads) {
        return 1;
    }
}
