package dev.faro.hyper;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.WorkCompletion;
import dev.faro.shuffle.transport.ReadinessPoller;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The communication multiplexer of one node (VLDB16 §3.2.2): one network thread that owns all of the node's traffic
 * for every exchange of every running query. Only multiplexers are connected, by one RC queue pair per peer node
 * (n(n−1) queue pairs per cluster, whatever the thread count); workers never post verbs. Workers hand full messages
 * to the send queue of their destination node ({@link #enqueue}); the network thread posts them as two-sided SENDs of
 * the used bytes only, releases them when the SEND completed, receives into the pool's receive messages, routes
 * each received message by its exchange id to that exchange's receive queues (one per worker group, taken in turn),
 * counts {@code isLast} markers, and posts a receive message again once a worker released it.
 *
 * <h2>Flow control</h2>
 * Node {@code p} keeps {@code receivesPerPeer} (R) receives posted on its queue pair to this node, and counts every
 * receive it posts again ({@code reposted}, absolute, only grows); after each change it writes that count (an 8-byte
 * inline RDMA WRITE, at most one in flight per peer) into this node's credit word for {@code p}
 * ({@link CreditWordsDescriptor}). This node sends its {@code k}-th message to {@code p} only while
 * {@code k < R + credit word}, so no SEND ever finds no receive posted.
 *
 * <h2>Completions</h2>
 * Event mode (default, the paper's choice): when a loop found no work, the thread spins briefly and then parks;
 * a worker handing it a message or a released receive unparks it, and completions are found at the next wake-up
 * (the fabric has no completion interrupt: parks of {@value #PARK_NANOS} ns, growing to {@value #MAX_PARK_NANOS} ns
 * over a quiet spell, stand in for the HCA event; a worker that begins to wait for a receive starts them again at
 * the shortest). Busy polling ({@link HyperConfig#busyPolling()}) spins instead.
 *
 * <h2>Failure</h2>
 * An error completion or a queue pair in ERROR (the fabric fails a dead peer's queue pair after its peer timeout,
 * posted receives included) fails every open exchange with the peer named, once; the first error wins in each
 * exchange. Later opens with that peer fail at once. A crash of the network thread fails every open exchange too.
 *
 * <h2>Parts</h2>
 * {@link PeerLink}: each peer's queue pair, send queue, flow-control counts and connection state. {@link SendPoster}:
 * the network thread's posting of SENDs and of credit and phase writes. {@link ReceiveRouter}: its routing of received
 * messages (holding early ones in {@link EarlyMessages}) and posting of receives. This class: the connections' set-up,
 * replacement and failure, what workers call, and the network thread's loop and idle strategy.
 *
 * <p>Threads: {@link #enqueue}, {@link #releaseReceive} and {@link #wake} are called by workers; connecting and
 * opening by query conductors; everything else runs on the network thread. Data path: allocation-free.
 */
public final class Multiplexer implements AutoCloseable {

    /** An empty queue's poll result (end markers are negative, message indexes not). */
    static final int EMPTY = Integer.MIN_VALUE;

    private static final int SPINS = 64;
    static final long PARK_NANOS = 20_000;
    /** The longest park of a network thread that has been idle for a while (doubling from {@link #PARK_NANOS}). */
    static final long MAX_PARK_NANOS = 1_000_000;

    private final int self;
    private final int nodes;
    private final HyperConfig config;
    private final MessagePool pool;
    private final ExchangeTable table;
    private final CompletionQueue completionQueue;
    private final MemoryRegion credits;
    private final int sendDepth;
    private final int incarnation = ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);

    /** Per node: the connection to it and its send queue (this node's own entry has no queue pair). */
    private final PeerLink[] links;

    private final Fabric fabric;

    /** The network thread's posting of sends, credit and phase writes. */
    private final SendPoster poster;
    /** The network thread's routing of received messages and posting of receives. */
    private final ReceiveRouter router;

    private final WorkCompletion[] completions = WorkCompletion.array(64);
    private int loops;

    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean sleeping;
    /** Set by a worker beginning to wait for a receive: the network thread's next park is the shortest again. */
    private volatile boolean demanded;
    /** Set by waiting workers: the next message or end the network thread routes wakes the readiness poller. */
    private volatile boolean awaited;

    // Counters: written by the network thread only; approximate reads.
    private volatile long parks;

    /**
     * Starts the multiplexer of node {@code self} of {@code nodes}: registers the message pool and the credit words,
     * creates one queue pair per peer with its receives posted, and starts the network thread. The queue pairs are
     * connected by the first exchange opened with each peer ({@link #offer}, {@link #connect}).
     */
    public Multiplexer(Fabric fabric, int self, int nodes, HyperConfig config) {
        if (nodes < 1 || self < 0 || self >= nodes) {
            throw new IllegalArgumentException("bad node: self=" + self + " nodes=" + nodes);
        }
        this.self = self;
        this.nodes = nodes;
        this.config = config;
        int receives = config.receivesPerPeer();
        this.sendDepth = receives + 3; // R data sends, a credit write and a phase write in flight, one spare
        this.table = new ExchangeTable(nodes);
        this.pool = new MessagePool(
                fabric, self, nodes, config.workerGroups(), config.sendMessages(), receives, config.messageBytes());
        this.credits = fabric.register(
                CreditWordsDescriptor.regionLength(nodes), EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        this.completionQueue = fabric.createCompletionQueue(Math.max(16, (nodes - 1) * (sendDepth + receives) + 16));
        this.links = new PeerLink[nodes];
        this.fabric = fabric;
        this.router = new ReceiveRouter(pool, table, links, this::failPeer);
        this.poster = new SendPoster(self, nodes, config, pool, links, credits, sendDepth, this::failPeer);
        try {
            for (int peer = 0; peer < nodes; peer++) {
                // every send queue holds every message and an end marker per open exchange
                links[peer] = new PeerLink(pool.size() + 2 * ExchangeTable.SLOTS, sendDepth * 2);
                if (peer != self) {
                    openQueuePair(peer); // its R receives are the initial credit, not counted in reposted
                }
            }
        } catch (RuntimeException e) {
            closeResources();
            throw e;
        }
        this.thread = Thread.ofPlatform()
                .daemon()
                .name("hyper-multiplexer-node-" + self)
                .start(this::run);
    }

    int self() {
        return self;
    }

    int nodes() {
        return nodes;
    }

    HyperConfig config() {
        return config;
    }

    MessagePool pool() {
        return pool;
    }

    ExchangeTable table() {
        return table;
    }

    // ------------------------------------------------------------------------------------------ connection setup

    /** What this node publishes at each open ({@link ConnectionOffer}, encoded). */
    byte[] offer() {
        List<byte[]> addresses = new ArrayList<>(nodes);
        for (int node = 0; node < nodes; node++) {
            addresses.add(
                    node == self ? new byte[0] : links[node].queuePair.address().toBytes());
        }
        return new ConnectionOffer(incarnation, credits.remoteKey().toBytes(), addresses).encode();
    }

    /**
     * Connects this node's queue pair for {@code peer} from the peer's {@link #offer}, unless it is connected already.
     * Returns whether it connected now.
     */
    synchronized boolean connect(int peer, byte[] peerOffer) {
        checkPeer(peer);
        if (links[peer].isConnected()) {
            return false;
        }
        ConnectionOffer offer = ConnectionOffer.decode(peerOffer, nodes);
        QueuePairAddress peerAddress = fabric.importAddress(offer.addressFor(self));
        links[peer].queuePair.connect(peerAddress);
        links[peer].connected(fabric.importRemoteKey(offer.creditKey()), offer.incarnation());
        return true;
    }

    /**
     * Whether this node's queue pair for {@code peer} is connected to another incarnation of the peer's multiplexer
     * than the one that made {@code peerOffer} (the peer's worker was replaced), or its connection failed.
     */
    synchronized boolean isStale(int peer, byte[] peerOffer) {
        return links[peer].isConnected()
                && (links[peer].incarnation
                                != ConnectionOffer.decode(peerOffer, nodes).incarnation()
                        || links[peer].failed());
    }

    /**
     * Replaces the queue pair for {@code peer} with a new, unconnected one (its receives posted), after failing the
     * exchanges that use the old connection: a replaced peer's worker is a new process with a new multiplexer. Waits
     * for the network thread to do it. Coordination code.
     */
    void replaceQueuePair(int peer) {
        links[peer].replaceRequested = true;
        LockSupport.unpark(thread);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (links[peer].replaceRequested) {
            if (!running || System.nanoTime() - deadline > 0) {
                throw new FaroException(
                        FaroException.Category.NETWORK,
                        "hyper multiplexer at node " + self + ": could not replace the connection to node " + peer);
            }
            LockSupport.parkNanos(PARK_NANOS);
            LockSupport.unpark(thread);
        }
    }

    /** Whether every peer's queue pair is connected and has not failed (an open may then skip connecting). */
    boolean allConnectedAndHealthy() {
        return poster.allConnectedAndHealthy();
    }

    boolean isConnected(int peer) {
        return peer == self || links[peer].isConnected();
    }

    /** Throws the failure of {@code peer}'s connection, if it failed (opens check every peer first). */
    void checkPeer(int peer) {
        String failure = links[peer].failure();
        if (failure != null) {
            throw new FaroException(FaroException.Category.NETWORK, failure);
        }
        if (!running) {
            throw new FaroException(FaroException.Category.CLOSED, "hyper multiplexer at node " + self + " is closed");
        }
    }

    // ------------------------------------------------------------------------------------------ worker side

    /**
     * Queues message {@code index} (retained for this destination) or, when negative, the end marker of exchange id
     * {@code -index - 2}, for {@code peer}. Data path.
     */
    void enqueue(int peer, int entry) {
        if (!links[peer].sendQueue.offer(entry)) {
            throw new IllegalStateException("send queue full: peer=" + peer + " entry=" + entry);
        }
        wake();
    }

    /** The end marker entry of exchange {@code id}. */
    static int endEntry(int id) {
        return -id - 2;
    }

    /** A worker is done with received message {@code index}: the network thread posts it again. Data path. */
    void releaseReceive(int index) {
        router.release(index);
        wake();
    }

    /** Releases one hold of a message a worker held (received or own-node). Data path. */
    void release(Message message) {
        if (message.kind == Message.KIND_RECEIVE) {
            message.retain.set(0);
            releaseReceive(message.index);
        } else {
            pool.releaseSend(message.index);
        }
    }

    /**
     * A worker waits for a receive: the next message or end the network thread routes wakes the readiness poller. When
     * the wait begins ({@code begins}: the worker's poll found nothing) the network thread is also woken now and its
     * idle parks start again at the shortest; the poller's later retries of the same wait leave the parks to grow as
     * over any quiet spell (as the poller's own parks do), so a long wait (a peer still computing what it will send)
     * does not keep the network thread waking every few tens of microseconds. Data path.
     */
    void demand(boolean begins) {
        if (!awaited) {
            awaited = true;
        }
        if (begins) {
            if (!demanded) {
                demanded = true;
            }
            wake();
        }
    }

    /**
     * A worker queued an own-node message or end: if a worker waits for a receive, the readiness poller retries now.
     * Data path: a volatile read, rarely an unpark.
     */
    void handedLocally() {
        if (awaited) {
            awaited = false;
            ReadinessPoller.wake();
        }
    }

    /** Unparks the network thread if it sleeps. Data path: a volatile read, rarely an unpark. */
    void wake() {
        if (sleeping) {
            LockSupport.unpark(thread);
        }
    }

    // ------------------------------------------------------------------------------------------ network thread

    private void run() {
        int idles = 0;
        try {
            while (running) {
                int work = replaceRequestedQueuePairs();
                int routed = router.routedCount();
                work += pollCompletions();
                work += router.routeEarly();
                if (router.routedCount() != routed && awaited) {
                    awaited = false;
                    ReadinessPoller.wake(); // the waiting workers' retries find what was routed now
                }
                work += router.repostReturned();
                work += poster.postSends();
                work += poster.writeCredits();
                if ((++loops & 1023) == 0) {
                    checkQueuePairs();
                }
                if (work > 0) {
                    idles = 0;
                } else if (demanded) {
                    demanded = false;
                    idles = Math.min(idles, SPINS);
                    idle(idles++);
                } else {
                    idle(idles++);
                }
            }
        } catch (Throwable t) {
            String message = "hyper multiplexer at node " + self + " crashed: " + t;
            for (int peer = 0; peer < nodes; peer++) {
                links[peer].fail(message);
            }
            for (DecoupledExchange exchange : table.openExchanges()) {
                exchange.fail(message);
            }
            if (t instanceof Error error) {
                throw error;
            }
        }
    }

    /**
     * Spins, then parks for {@link #PARK_NANOS}, doubling each further idle park up to {@link #MAX_PARK_NANOS}: a
     * network thread that wakes every few tens of microseconds for nothing takes the core from the workers of a
     * CPU-bound query on a small host, while one that sleeps long adds up to a millisecond before it notices a
     * receive after a quiet spell (a worker handing it a message or a release wakes it at once). A worker beginning to
     * wait for a receive ({@link #demand}) starts the parks again at the shortest, and while messages wait for their
     * exchange to be routed every park is the shortest: the fabric raises no event when a peer's message lands, so
     * the park is the receive's latency.
     */
    private void idle(int idles) {
        if (config.busyPolling() || idles < SPINS) {
            Thread.onSpinWait();
            return;
        }
        sleeping = true;
        if (!router.hasReturned() && !poster.hasSendable()) {
            parks++;
            int doublings = router.holdsEarly() ? 0 : Math.min(6, (idles - SPINS) / 8);
            LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, PARK_NANOS << doublings));
        }
        sleeping = false;
    }

    private int pollCompletions() {
        int count = completionQueue.poll(completions);
        for (int i = 0; i < count; i++) {
            WorkCompletion completion = completions[i];
            long id = completion.requestId();
            int kind = RequestIds.kind(id);
            int peer = RequestIds.peer(id);
            int index = RequestIds.index(id);
            if (!RequestIds.ofEpoch(id, links[peer].epoch)) {
                continue; // of a replaced queue pair: its messages were released or posted again then
            }
            if (kind != RequestIds.KIND_RECEIVE) {
                links[peer].outstanding--;
            } else {
                router.completed(index);
            }
            if (kind == RequestIds.KIND_DATA || kind == RequestIds.KIND_END) {
                links[peer].outstandingData--;
                links[peer].inFlight.poll(EMPTY);
            }
            if (!completion.status().isSuccess()) {
                if (kind == RequestIds.KIND_DATA) {
                    pool.releaseSend(index);
                }
                failPeer(peer, completion.status() + " on " + completion.opcode());
                continue;
            }
            switch (kind) {
                case RequestIds.KIND_DATA -> pool.releaseSend(index);
                case RequestIds.KIND_CREDIT -> links[peer].creditInFlight = false;
                case RequestIds.KIND_PHASE -> links[peer].phaseInFlight = false;
                case RequestIds.KIND_RECEIVE -> router.onReceive(pool.message(index), completion.byteLength());
                default -> {
                    // KIND_END: nothing to release
                }
            }
        }
        return count;
    }

    /** Creates the queue pair for {@code peer} and posts the peer's receive messages that no worker holds. */
    private void openQueuePair(int peer) {
        links[peer].queuePair = fabric.createRcQueuePair(new QueuePairConfig(
                completionQueue,
                completionQueue,
                sendDepth,
                config.receivesPerPeer(),
                QueuePairConfig.DEFAULT_MAX_INLINE_BYTES));
        router.postInitial(peer, pool.firstReceive(peer, self), config.receivesPerPeer());
    }

    private int replaceRequestedQueuePairs() {
        int work = 0;
        for (int peer = 0; peer < nodes; peer++) {
            if (peer != self && links[peer].replaceRequested) {
                replace(peer);
                links[peer].replaceRequested = false;
                work++;
            }
        }
        return work;
    }

    /** The network thread's part of {@link #replaceQueuePair}: a fresh connection state for {@code peer}. */
    private void replace(int peer) {
        String message = "hyper multiplexer at node " + self + ": the connection to node " + peer + " failed (node "
                + peer + " was restarted)";
        links[peer].fail(message);
        for (DecoupledExchange exchange : table.openExchanges()) {
            if (exchange.peerId(peer) >= 0) {
                exchange.fail(message);
            }
        }
        poster.dropQueued(peer);
        router.forgetEarly(peer);
        table.forgetPeer(peer);
        int entry;
        while ((entry = links[peer].inFlight.poll(EMPTY)) != EMPTY) {
            if (entry >= 0) {
                pool.releaseSend(entry);
            }
        }
        links[peer].queuePair.close();
        links[peer].reset();
        CreditWordsDescriptor.reset(credits.segment(), peer); // a replaced peer catches up the phases
        openQueuePair(peer);
        synchronized (this) {
            links[peer].disconnected();
        }
    }

    private void checkQueuePairs() {
        for (int peer = 0; peer < nodes; peer++) {
            if (peer != self
                    && links[peer].isConnected()
                    && !links[peer].failed()
                    && links[peer].queuePair.state() == QueuePairState.ERROR) {
                failPeer(peer, "its queue pair is in error (peer died or closed)");
            }
        }
    }

    /** Records the first failure of {@code peer}'s connection and fails every open exchange with it. */
    private void failPeer(int peer, String reason) {
        String message =
                "hyper multiplexer at node " + self + ": the connection to node " + peer + " failed (" + reason + ")";
        if (links[peer].fail(message)) {
            for (DecoupledExchange exchange : table.openExchanges()) {
                exchange.fail(message);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ reporting, close

    /** Messages (data and end markers) posted to peers so far. Approximate. */
    public long messagesSent() {
        return poster.messagesSent();
    }

    /** Bytes posted to peers (headers included, only the used bytes of each message). Approximate. */
    public long bytesSent() {
        return poster.bytesSent();
    }

    public long messagesReceived() {
        return router.messagesReceived();
    }

    /** Credit words written to peers. Approximate. */
    public long creditWrites() {
        return poster.creditWrites();
    }

    /** Messages of exchanges closed before they arrived (after a failure). Approximate. */
    public long dropped() {
        return router.dropped();
    }

    /** Round-robin phases this node completed. Approximate. */
    public long phases() {
        return poster.phases();
    }

    /**
     * What the network thread's counts say (per peer: sent, outstanding, credit, phase words; held early messages):
     * for a stall's report. Racy reads; coordination code.
     */
    public String describe() {
        return "node " + self + ": " + messagesSent() + " sent, " + messagesReceived() + " received, " + dropped()
                + " dropped, " + phases() + " phases, " + creditWrites() + " credit writes, "
                + (router.holdsEarly() ? "holds early messages, " : "") + poster.describe();
    }

    /** Times the network thread parked for lack of work. Approximate. */
    public long parks() {
        return parks;
    }

    /** Queue pairs this node has connected: one per peer node, whatever the thread, exchange and query counts. */
    public int queuePairs() {
        int count = 0;
        for (int peer = 0; peer < nodes; peer++) {
            count += peer != self && links[peer].isConnected() ? 1 : 0;
        }
        return count;
    }

    /** Bytes of registered memory: the message pool and the credit words, registered once at start. */
    public long registeredBytes() {
        return pool.region().lengthBytes() + credits.lengthBytes();
    }

    /** Send messages taken by workers so far, and of those, the ones taken from another group's free list. */
    public long poolAcquires() {
        return pool.acquires();
    }

    public long poolStolen() {
        return pool.stolen();
    }

    /** The sum of the pool's retain counts (0 when no exchange holds a message; exact when the node is idle). */
    public long retained() {
        return pool.retained();
    }

    /** Send messages not free (0 when the node is idle). */
    public int sendMessagesInUse() {
        return pool.sendMessagesInUse();
    }

    /** Stops the network thread, fails the exchanges still open and frees the queue pairs and the pool. */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (DecoupledExchange exchange : table.openExchanges()) {
            exchange.fail("hyper multiplexer at node " + self + " closed");
        }
        closeResources();
    }

    private void closeResources() {
        for (PeerLink link : links) {
            if (link != null && link.queuePair != null) {
                link.queuePair.close();
            }
        }
        completionQueue.close();
        credits.close();
        pool.close();
    }
}
