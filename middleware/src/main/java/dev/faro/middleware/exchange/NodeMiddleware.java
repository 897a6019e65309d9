package dev.faro.middleware.exchange;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.middleware.MiddlewareConfig;
import dev.faro.middleware.NioShuffle;
import dev.faro.middleware.ShuffleMiddleware;
import dev.faro.middleware.ShuffleQueues;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * One node's DAIS16 middleware for the lifetime of the node: every exchange of every query shares its rings (one
 * outgoing and one incoming ring per worker pair, one connection per node pair), as the paper's DQE shares them
 * among all shuffle operators of a plan. Each exchange gets an operator id; the records of all exchanges travel
 * mixed in the rings and are sorted into per-operator demux queues as they are read.
 *
 * <p>The middleware is opened collectively at the first exchange that needs it ({@link #open}), with one worker per
 * engine thread, and kept until {@link #close}. Every {@link #open} is collective (every node opens the same
 * exchanges in the same order, per the exchange SPI) and first agrees, through the query's {@link PeerExchange}, that
 * every node's middleware is usable, has the query's shape and has opened as many exchanges: if any node's is not
 * (a failed peer, a query that failed and left rows in the rings, another thread count or node count), every node
 * replaces its middleware in the same call, so stale rows never reach a later query; the new middleware's generation
 * (in its connection keys) is the highest any of these nodes had plus one, so nodes that served different earlier
 * queries (a query on fewer of the cluster's nodes) still meet. Operator ids are the count of exchanges
 * opened modulo {@link ShuffleQueues#MAX_OPERATORS}, the same at every node; an id is free again once its exchange
 * closed.
 *
 * <p>Serves one query at a time per node (as the cluster runs queries): operator ids are allocated in the order the
 * exchanges open, which only a single query keeps equal at every node. An exchange of a second query opened while
 * the first query's exchanges are open is refused with an error that says so, before anything is shared or replaced,
 * so the running query goes on. Coordination code; thread-safe.
 */
public final class NodeMiddleware implements AutoCloseable {

    /** Ring bytes per worker pair: twice the paper's 64 KB, so that four of the largest records fit. */
    static final int RING_BYTES = 128 * 1024;
    /** The largest record: one engine buffer of rows (32 KiB). */
    static final int BUFFER_BYTES = RING_BYTES / 4;

    /** What carries the rows between nodes. */
    public enum Backend {
        /** The middleware on the node's fabric: shared rings, one-sided WRITE, batched notifications. */
        FABRIC,
        /** The paper's baseline: one non-blocking socket channel per pair of workers on different nodes. */
        NIO
    }

    private final Fabric fabric;
    private final Backend backend;
    private ShuffleMiddleware middleware;
    private NioShuffle nio;
    private ShuffleQueues[] workers;
    private WorkerLock[] locks;
    private int generation;
    private long opened;
    private final boolean[] inUse = new boolean[ShuffleQueues.MAX_OPERATORS];
    /** Exchanges of the current generation opened and not yet released. */
    private int leases;
    /** The query whose exchanges hold the {@link #leases} (its transport), null when none is open. */
    private Object runningQuery;

    private boolean dirty;

    /** A node's middleware over {@code fabric} with the paper's write threshold (16 KB). */
    public NodeMiddleware(Fabric fabric) {
        this(fabric, Backend.FABRIC);
    }

    /** A node's middleware on {@code backend} ({@code fabric} is unused by NIO) with the paper's write threshold. */
    public NodeMiddleware(Fabric fabric, Backend backend) {
        this.fabric = Objects.requireNonNull(fabric, "fabric is null");
        this.backend = Objects.requireNonNull(backend, "backend is null");
    }

    /** The configuration of the middleware for {@code nodes} nodes of {@code threads} engine threads. */
    MiddlewareConfig config(int nodes, int threads) {
        return new MiddlewareConfig(
                nodes, threads, RING_BYTES, MiddlewareConfig.DEFAULT_WRITE_THRESHOLD, RING_BYTES / 4, BUFFER_BYTES);
    }

    /**
     * Opens one exchange of a query: agrees with every node on the middleware (replacing it everywhere when any node's
     * cannot serve, see the class comment) and allocates the exchange's operator id. Collective.
     *
     * @param query the query the exchange belongs to (its transport; compared by identity)
     * @throws FaroException INVALID_ARGUMENT when another query's exchanges are still open at this node
     */
    synchronized Lease open(PeerExchange peers, String exchangeName, int threads, Object query) {
        Objects.requireNonNull(query, "query is null");
        if (leases > 0 && query != runningQuery) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "DAIS16 serves one query at a time per node: exchange " + exchangeName + " of a second query "
                            + "opened at node " + peers.nodeIndex() + " while " + leases + " exchange(s) of another "
                            + "query are open there (run the queries one after another on this transport; or an "
                            + "earlier query's exchange was never closed)");
        }
        MiddlewareConfig current = middleware != null ? middleware.config() : nio != null ? nio.config() : null;
        boolean ready = current != null
                && backendUsable()
                && !dirty
                && current.processes() == peers.nodes()
                && current.workersPerProcess() == threads;
        byte[] mine = ByteBuffer.allocate(13)
                .put((byte) (ready ? 1 : 0))
                .putLong(opened)
                .putInt(generation)
                .array();
        byte[][] all = peers.allGather("dais16." + exchangeName + ".open", mine);
        boolean allReady = true;
        int newest = generation;
        for (byte[] other : all) {
            // read every field of every node's answer (a short-circuit && would skip a not-ready node's count and
            // read its generation from the wrong bytes: the nodes would then open under different keys)
            ByteBuffer in = ByteBuffer.wrap(other);
            boolean otherReady = in.get() == 1;
            long otherOpened = in.getLong();
            int otherGeneration = in.getInt();
            // the same generation everywhere: the nodes share one middleware (made by the same earlier open)
            allReady &= otherReady && otherOpened == opened && otherGeneration == generation;
            newest = Math.max(newest, otherGeneration);
        }
        if (!allReady) {
            // every node takes the same next generation: the nodes of this query may have served different earlier
            // queries (a query on fewer nodes of the cluster replaced the middleware on those nodes only)
            replace(peers, exchangeName, threads, newest + 1);
        }
        int operator = (int) (opened++ % ShuffleQueues.MAX_OPERATORS);
        if (inUse[operator]) {
            dirty = true;
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "DAIS16: more than " + ShuffleQueues.MAX_OPERATORS + " exchanges open at once at node "
                            + peers.nodeIndex() + " (operator id " + operator + " is still in use)");
        }
        inUse[operator] = true;
        leases++;
        runningQuery = query;
        return new Lease(workers, locks, operator, generation);
    }

    /**
     * Whether the backend can serve another exchange: the middleware has not failed (its network thread sees a dead
     * peer even between queries); NIO's channels are probed for a closed or failed peer, or for a failed query's bytes,
     * when no exchange uses them (a worker's channel is its own while an exchange is open).
     */
    private boolean backendUsable() {
        if (middleware != null) {
            return !middleware.unusable();
        }
        return leases == 0 ? !nio.probeIdle() : !nio.unusable();
    }

    private void replace(PeerExchange peers, String exchangeName, int threads, int nextGeneration) {
        closeBackend();
        generation = nextGeneration;
        opened = 0;
        Arrays.fill(inUse, false);
        leases = 0;
        dirty = false;
        MiddlewareConfig config = config(peers.nodes(), threads);
        String keys = "dais16." + exchangeName + ".g" + generation;
        workers = new ShuffleQueues[threads];
        if (backend == Backend.FABRIC) {
            middleware = ShuffleMiddleware.open(fabric, config, peers, keys);
            for (int t = 0; t < threads; t++) {
                workers[t] = middleware.worker(t);
            }
        } else {
            nio = NioShuffle.open(config, peers, keys);
            for (int t = 0; t < threads; t++) {
                workers[t] = nio.worker(t);
            }
        }
        locks = new WorkerLock[threads];
        for (int t = 0; t < threads; t++) {
            locks[t] = new WorkerLock();
        }
    }

    /**
     * Frees an exchange's operator id; {@code clean} false (its streams did not all end: the query failed) marks the
     * rings as holding stale rows, so the next open replaces the middleware on every node.
     */
    synchronized void release(Lease lease, boolean clean) {
        if (lease.generation() != generation) {
            return;
        }
        inUse[lease.operator()] = false;
        if (--leases == 0) {
            runningQuery = null;
        }
        if (!clean) {
            dirty = true;
        }
    }

    /**
     * The generation of this node's middleware: 0 before the first exchange, 1 after the first query, and at each
     * replacement the highest generation of the query's nodes plus one (so it can skip numbers at a node that missed
     * queries).
     */
    public synchronized int generation() {
        return generation;
    }

    /** The current fabric middleware, null before the first exchange or with NIO; for counters and tests. */
    public synchronized ShuffleMiddleware middleware() {
        return middleware;
    }

    @Override
    public synchronized void close() {
        closeBackend();
    }

    private void closeBackend() {
        if (middleware != null) {
            middleware.close();
            middleware = null;
        }
        if (nio != null) {
            nio.close();
            nio = null;
        }
    }

    /** One exchange's share of the middleware: the workers (by engine thread) and its operator id. */
    record Lease(ShuffleQueues[] workers, WorkerLock[] locks, int operator, int generation) {}
}
