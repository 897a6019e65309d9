package dev.faro.hyper;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The exchanges open at one node, across every running query: how the network thread finds the exchange an incoming
 * message belongs to. Each open exchange gets a local slot and an id ({@code slot << 16 | generation}, the generation
 * counting the slot's reuses); messages carry the <em>sender's</em> id, and every node maps (source node, sender's id)
 * to its own exchange when the exchange is opened (right after the open's gather). A peer may send as soon as its own
 * gather returned, so a message may arrive before its exchange is mapped here: its id's generation is then newer than
 * the last one mapped for that (peer, slot) ({@link #isEarly}), and the network thread holds it until the map. A
 * message whose id is neither mapped nor newer is late (its exchange was closed after a failure) and is dropped.
 *
 * <p>Threads: opening and closing threads write (synchronized); the network thread reads {@link #incoming} and
 * {@link #isEarly} (atomic array reads, allocation-free).
 */
final class ExchangeTable {

    /** Exchanges open at once per node, across queries. */
    static final int SLOTS = 1024;

    private final int nodes;
    private final DecoupledExchange[] open = new DecoupledExchange[SLOTS];
    private final int[] generations = new int[SLOTS];
    /** [peer * SLOTS + peer's slot]: the local exchange a peer's messages with that slot belong to. */
    private final AtomicReferenceArray<DecoupledExchange> incoming;
    /** [peer * SLOTS + peer's slot]: the generation of the last id mapped there, with {@link #MAPPED}; 0: never. */
    private final AtomicIntegerArray lastMapped;

    private static final int MAPPED = 1 << 16;

    ExchangeTable(int nodes) {
        this.nodes = nodes;
        this.incoming = new AtomicReferenceArray<>(nodes * SLOTS);
        this.lastMapped = new AtomicIntegerArray(nodes * SLOTS);
    }

    static int id(int slot, int generation) {
        return slot << 16 | (generation & 0xFFFF);
    }

    static int slot(int id) {
        return id >>> 16;
    }

    /** Reserves a slot for {@code exchange}; returns its id. */
    synchronized int register(DecoupledExchange exchange) {
        for (int slot = 0; slot < SLOTS; slot++) {
            if (open[slot] == null) {
                open[slot] = exchange;
                generations[slot]++;
                return id(slot, generations[slot]);
            }
        }
        throw new IllegalStateException("more than " + SLOTS + " exchanges open at one node");
    }

    /** Routes {@code peer}'s messages carrying {@code peerId} to {@code exchange}. */
    void map(int peer, int peerId, DecoupledExchange exchange) {
        int route = peer * SLOTS + slot(peerId);
        incoming.set(route, exchange);
        lastMapped.set(route, MAPPED | (peerId & 0xFFFF)); // after the route: see isEarly
    }

    /**
     * Whether {@code peer}'s message with {@code peerId} belongs to an exchange not mapped here yet (its generation is
     * newer than the last one mapped for the slot) rather than a closed one, when {@link #incoming} read
     * <em>after</em> this finds no exchange for it ({@link #map} writes the route before the generation, so a message
     * found not early then finds the route unless its exchange was removed since).
     */
    boolean isEarly(int peer, int peerId) {
        int slot = slot(peerId);
        if (peer < 0 || peer >= nodes || slot >= SLOTS) {
            return false;
        }
        int last = lastMapped.get(peer * SLOTS + slot);
        return last == 0 || (short) (peerId - last) > 0;
    }

    /** The exchange {@code peer}'s message with {@code peerId} belongs to, or null (late or unknown). */
    DecoupledExchange incoming(int peer, int peerId) {
        int slot = slot(peerId);
        if (peer < 0 || peer >= nodes || slot >= SLOTS) {
            return null;
        }
        DecoupledExchange exchange = incoming.get(peer * SLOTS + slot);
        return exchange != null && exchange.peerId(peer) == peerId ? exchange : null;
    }

    /** Frees {@code exchange}'s slot and its routes. */
    synchronized void remove(DecoupledExchange exchange) {
        int slot = slot(exchange.id());
        if (open[slot] == exchange) {
            open[slot] = null;
        }
        for (int peer = 0; peer < nodes; peer++) {
            int peerId = exchange.peerId(peer);
            if (peerId >= 0) {
                incoming.compareAndSet(peer * SLOTS + slot(peerId), exchange, null);
            }
        }
    }

    /**
     * Forgets every route and mapped generation of {@code peer}: its worker was replaced, and the new process's
     * multiplexer numbers its slots' generations from 1 again, so its messages would look late next to the old
     * process's generations (network thread, while the peer has no connection).
     */
    void forgetPeer(int peer) {
        for (int route = peer * SLOTS; route < (peer + 1) * SLOTS; route++) {
            incoming.set(route, null);
            lastMapped.set(route, 0);
        }
    }

    /** The exchanges open now (coordination: failures fail them all). */
    synchronized List<DecoupledExchange> openExchanges() {
        List<DecoupledExchange> result = new ArrayList<>();
        for (DecoupledExchange exchange : open) {
            if (exchange != null) {
                result.add(exchange);
            }
        }
        return result;
    }
}
