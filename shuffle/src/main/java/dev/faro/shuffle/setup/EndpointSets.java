package dev.faro.shuffle.setup;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointImplementation;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A node's endpoint sets that outlive their shuffles: one shuffle's {@link NodeEndpoints} (the design's queue pairs,
 * queues, registered memory and buffer pool), kept after the shuffle ended and taken by a later shuffle of the same
 * shape (design and configuration, transmission groups, nodes) instead of opening new ones (TODS19's OPEN, the
 * design's dominant cost for a small query). Each shuffle still has its own endpoints for its duration, with the
 * design's credits, queues and protocol: SE one per node and side, ME one per thread.
 *
 * <p>Agreement: a set is one endpoint per node, wired to each other; every node must take the same set for a shuffle,
 * and only once every node's side of it has ended its previous stream ({@link NodeEndpoints#recycle}), so that no
 * message or credit of that stream can reach a reset endpoint. {@link #open} therefore gathers, once per shuffle,
 * every node's free sets of the shape (reserved meanwhile, so that concurrent opens never offer the same set), the
 * sets it discarded, a number for this open and its instance (a random number per pool: a restarted worker has a new
 * one); it takes the lowest set free at every node, or else opens a new set, named by node 0's number. A set whose shuffle failed at
 * any node is closed there and named in that node's next gathers, and the other nodes close their side of it; a set
 * made with another instance of a node is closed.
 *
 * <p>The Send/Receive designs (RC and UD) and the READ designs reset their endpoints; the WRITE designs open per
 * shuffle as before.
 * Coordination code; thread-safe.
 */
public final class EndpointSets implements AutoCloseable {

    /**
     * Free sets kept per shape: a query keeps as many as it has exchanges of the shape open at once (each set holds its
     * design's registered buffers); beyond, the longest unused is closed.
     */
    public static final int MAX_FREE_PER_SHAPE = 16;

    /** Discarded ids remembered: a set whose id was forgotten lingers at the others until they evict it. */
    static final int MAX_DISCARDED_IDS = 1024;

    private final long instance = new SecureRandom().nextLong();
    private final Map<Shape, List<Entry>> free = new LinkedHashMap<>();
    /** Ids this node closed (or the newest of them), told to the other nodes at every open. */
    private final Set<Long> discarded = new LinkedHashSet<>();

    private long nextId;
    private long opened;
    private long reused;
    private boolean closed;

    /** Whether shuffles of {@code config}'s design can reuse endpoint sets (its endpoints reset themselves). */
    public static boolean reusable(EndpointConfig config) {
        EndpointImplementation implementation = config.design().implementation();
        return implementation == EndpointImplementation.RC_TWO_SIDED
                || implementation == EndpointImplementation.UD_TWO_SIDED
                || implementation == EndpointImplementation.RC_READ;
    }

    /**
     * This node's endpoints of one shuffle: a free set of the shape that every node offers, restarted, or a new set
     * ({@link EndpointFactory#open}). Collective, like {@link EndpointFactory#open}. Close the lease when the shuffle
     * is done: it keeps the set when its streams ended cleanly, and closes it otherwise.
     */
    public Lease open(
            Fabric fabric, PeerExchange peers, String shuffleName, EndpointConfig config, TransmissionGroups groups) {
        Shape shape = new Shape(config, groups.toString(), peers.nodes(), peers.nodeIndex());
        List<Entry> offered;
        long[] dead;
        long myNext;
        synchronized (this) {
            checkOpen();
            offered = free.getOrDefault(shape, List.of());
            free.remove(shape);
            dead = discarded.stream().mapToLong(Long::longValue).toArray();
            myNext = nextId++; // this open's own number: a new set gets node 0's (see Agreement)
        }
        byte[][] all;
        try {
            all = peers.allGather(shuffleName + "/endpoint-sets", encode(offered, dead, myNext));
        } catch (RuntimeException e) {
            // the peers may have taken one of them, or may not have: none can be trusted any more
            offered.forEach(this::discardQuietly);
            throw e;
        }
        Agreement agreement = Agreement.of(all);
        Entry chosen = null;
        List<Entry> keep = new ArrayList<>();
        for (Entry entry : offered) {
            if (agreement.dead.contains(entry.id) || !Arrays.equals(entry.instances, agreement.instances)) {
                closeQuietly(entry); // a node discarded it, or it was made with another instance of a node
            } else if (agreement.common.contains(entry.id) && (chosen == null || entry.id < chosen.id)) {
                if (chosen != null) {
                    keep.add(chosen);
                }
                chosen = entry;
            } else {
                keep.add(entry);
            }
        }
        synchronized (this) {
            if (closed) {
                keep.forEach(EndpointSets::closeQuietly);
            } else if (!keep.isEmpty()) {
                free.computeIfAbsent(shape, unused -> new ArrayList<>()).addAll(keep);
            }
        }
        if (chosen == null) {
            NodeEndpoints endpoints = EndpointFactory.open(fabric, peers, shuffleName, config, groups);
            chosen = new Entry(agreement.newId, shape, agreement.instances, endpoints);
            synchronized (this) {
                opened++;
            }
            return new Lease(chosen);
        }
        synchronized (this) {
            reused++;
        }
        try {
            chosen.endpoints.restart();
        } catch (RuntimeException e) {
            discard(chosen, e);
            throw e;
        }
        return new Lease(chosen);
    }

    /**
     * What every node said in an open's gather: their instances, the ids free at every node, the ids discarded anywhere,
     * and the id of a new set: the number node 0 gave this open. Node 0 numbers each of its opens anew, so that two
     * opens never give one id to two sets, even when they run at once and reach the nodes in different orders; with
     * node 0's instance (every set is kept with the nodes' instances) it names one set.
     */
    private record Agreement(long[] instances, long newId, Set<Long> common, Set<Long> dead) {
        static Agreement of(byte[][] all) {
            long[] instances = new long[all.length];
            long newId = 0;
            Set<Long> common = null;
            Set<Long> dead = new HashSet<>();
            for (int node = 0; node < all.length; node++) {
                ByteBuffer in = ByteBuffer.wrap(all[node]);
                instances[node] = in.getLong();
                long number = in.getLong();
                if (node == 0) {
                    newId = number;
                }
                Set<Long> ids = new HashSet<>();
                for (int i = in.getInt(); i > 0; i--) {
                    ids.add(in.getLong());
                }
                for (int i = in.getInt(); i > 0; i--) {
                    dead.add(in.getLong());
                }
                if (common == null) {
                    common = ids;
                } else {
                    common.retainAll(ids);
                }
            }
            return new Agreement(instances, newId, common == null ? Set.of() : common, dead);
        }
    }

    private void discardQuietly(Entry entry) {
        markDiscarded(entry);
        closeQuietly(entry);
    }

    private synchronized void markDiscarded(Entry entry) {
        discarded.add(entry.id);
        if (discarded.size() > MAX_DISCARDED_IDS) {
            discarded.remove(discarded.iterator().next());
        }
    }

    private byte[] encode(List<Entry> offered, long[] dead, long next) {
        ByteBuffer out = ByteBuffer.allocate(8 + 8 + 4 + 8 * offered.size() + 4 + 8 * dead.length);
        out.putLong(instance).putLong(next).putInt(offered.size());
        for (Entry entry : offered) {
            out.putLong(entry.id);
        }
        out.putInt(dead.length);
        for (long id : dead) {
            out.putLong(id);
        }
        return out.array();
    }

    /** Sets opened new and sets reused, since this node started. */
    public synchronized long opened() {
        return opened;
    }

    public synchronized long reused() {
        return reused;
    }

    /** Free sets kept now (all shapes). */
    public synchronized int freeSets() {
        return free.values().stream().mapToInt(List::size).sum();
    }

    private void giveBack(Entry entry) {
        boolean kept;
        try {
            kept = entry.endpoints.recycle();
        } catch (RuntimeException e) {
            discard(entry, e);
            throw e;
        }
        if (!kept) {
            discard(entry, null);
            return;
        }
        Entry evicted = null;
        boolean stopped;
        synchronized (this) {
            stopped = closed;
            if (!stopped) {
                List<Entry> sets = free.computeIfAbsent(entry.shape, unused -> new ArrayList<>());
                sets.add(entry);
                if (sets.size() > MAX_FREE_PER_SHAPE) {
                    evicted = sets.removeFirst(); // the longest unused (e.g. one no other node offers any more)
                }
            }
        }
        if (evicted != null) {
            discardQuietly(evicted);
        }
        if (stopped) {
            entry.endpoints.close();
        }
    }

    private void discard(Entry entry, RuntimeException cause) {
        markDiscarded(entry);
        try {
            entry.endpoints.close();
        } catch (RuntimeException e) {
            if (cause != null) {
                cause.addSuppressed(e);
            } else {
                throw e;
            }
        }
    }

    private static void closeQuietly(Entry entry) {
        try {
            entry.endpoints.close();
        } catch (RuntimeException ignored) {
            // a set another node discarded: its peers' queue pairs are gone, so its close may fail
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the node has stopped; no shuffle can open endpoints");
        }
    }

    /** Closes every free set; a set still leased is closed when its shuffle gives it back. */
    @Override
    public void close() {
        List<Entry> toClose = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            free.values().forEach(toClose::addAll);
            free.clear();
        }
        toClose.forEach(EndpointSets::closeQuietly);
    }

    /** One shuffle's use of a set: its endpoints, until {@link #close}. */
    public final class Lease implements AutoCloseable {
        private final Entry entry;
        private boolean done;

        private Lease(Entry entry) {
            this.entry = entry;
        }

        public NodeEndpoints endpoints() {
            return entry.endpoints;
        }

        /** The set's id, the same at every node. */
        public long setId() {
            return entry.id;
        }

        /** Ends the shuffle: the set is kept when every endpoint recycled, else closed (and named to the peers). */
        @Override
        public void close() {
            if (done) {
                return;
            }
            done = true;
            giveBack(entry);
        }

        /** Closes the set without trying to keep it (the shuffle failed). */
        public void discard() {
            if (done) {
                return;
            }
            done = true;
            EndpointSets.this.discard(entry, null);
        }
    }

    private record Shape(EndpointConfig config, String groups, int nodes, int self) {}

    private static final class Entry {
        final long id;
        final Shape shape;
        final long[] instances;
        final NodeEndpoints endpoints;

        Entry(long id, Shape shape, long[] instances, NodeEndpoints endpoints) {
            this.id = id;
            this.shape = shape;
            this.instances = instances;
            this.endpoints = endpoints;
        }
    }
}
