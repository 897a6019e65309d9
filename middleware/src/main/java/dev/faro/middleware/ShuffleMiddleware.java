package dev.faro.middleware;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.bootstrap.PeerExchange;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.EnumSet;
import java.util.Objects;

/**
 * DAIS16's asynchronous multi-stage shuffle middleware for one process: everything is allocated and connected at
 * {@link #open} (rings, one queue pair and one registered region per peer process, posted receives, the network
 * thread) and reused by every query until {@link #close}. Workers use it through {@link #worker(int)}.
 *
 * <p>Per process with {@code m} processes of {@code n} workers: {@code m − 1} connections and regions, {@code n·n}
 * outgoing and {@code n·n} incoming rings per peer, and {@code n·n} same-process rings read in place.
 *
 * <p>Coordination code; the per-row paths are in {@link MiddlewareWorker}, {@link OutgoingRing} and
 * {@link NetworkThread}.
 */
public final class ShuffleMiddleware implements AutoCloseable {

    private static final VarHandle FAILURE;

    static {
        try {
            FAILURE = MethodHandles.lookup().findVarHandle(ShuffleMiddleware.class, "failure", FaroException.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MiddlewareConfig config;
    private final int process;
    private final Arena arena;
    private final CompletionQueue completionQueue;
    private final PeerConnection[] peers;
    private final WorkerSlot[] slots;
    /** incoming[readerLocal][sourceGlobalWorker] */
    private final IncomingRing[][] incoming;
    /** outgoing[writerLocal][destinationGlobalWorker] */
    private final OutgoingRing[][] outgoing;

    private final MiddlewareWorker[] workers;
    private final NetworkThread networkThread;
    private final Thread networkThreadHandle;
    private volatile FaroException failure;
    private volatile boolean closed;

    private ShuffleMiddleware(MiddlewareConfig config, int process, Fabric fabric) {
        this.config = config;
        this.process = process;
        this.arena = Arena.ofShared();
        int n = config.workersPerProcess();
        int m = config.processes();
        int pairs = n * n;
        long ringBytes = config.ringBytes();
        int sendDepth = pairs + PeerConnection.NOTIFY_LIMIT + 8;
        this.completionQueue =
                fabric.createCompletionQueue(Math.max(1, (m - 1) * (sendDepth + PeerConnection.RECEIVE_SLOTS)));
        this.peers = new PeerConnection[m];
        this.slots = new WorkerSlot[n];
        for (int i = 0; i < n; i++) {
            slots[i] = new WorkerSlot();
        }
        for (int q = 0; q < m; q++) {
            if (q == process) {
                continue;
            }
            RcQueuePair queuePair = fabric.createRcQueuePair(new QueuePairConfig(
                    completionQueue,
                    completionQueue,
                    sendDepth,
                    PeerConnection.RECEIVE_SLOTS,
                    QueuePairConfig.DEFAULT_MAX_INLINE_BYTES));
            MemoryRegion rings =
                    fabric.register(2L * pairs * ringBytes, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
            MemoryRegion receives = fabric.register(
                    (long) PeerConnection.RECEIVE_SLOTS * NotificationDescriptor.MESSAGE_LENGTH,
                    EnumSet.of(Access.LOCAL_WRITE));
            peers[q] = new PeerConnection(
                    q, queuePair, rings, receives, pairs, arena.allocate(NotificationDescriptor.MESSAGE_LENGTH, 8));
        }
        int workersTotal = config.workers();
        ReadyRings[] ready = new ReadyRings[n];
        for (int i = 0; i < n; i++) {
            ready[i] = new ReadyRings(workersTotal);
        }
        LocalRings local = new LocalRings(config, process, slots, ready, arena);
        this.incoming = new IncomingRing[n][workersTotal];
        this.outgoing = new OutgoingRing[n][workersTotal];
        for (int reader = 0; reader < n; reader++) {
            for (int source = 0; source < workersTotal; source++) {
                int sourceProcess = config.processOf(source);
                int writer = source % n;
                int index = writer * n + reader;
                if (sourceProcess == process) {
                    incoming[reader][source] = local.incoming[reader][writer];
                } else {
                    PeerConnection peer = peers[sourceProcess];
                    incoming[reader][source] = new IncomingRing(
                            index,
                            peer.rings.segment().asSlice((pairs + index) * ringBytes, ringBytes),
                            peer,
                            null,
                            ready[reader],
                            source,
                            slots[reader]);
                }
            }
        }
        for (int writer = 0; writer < n; writer++) {
            for (int destination = 0; destination < workersTotal; destination++) {
                int destinationProcess = config.processOf(destination);
                int reader = destination % n;
                int index = writer * n + reader;
                OutgoingRing ring;
                if (destinationProcess == process) {
                    ring = local.outgoing[writer][reader];
                } else {
                    PeerConnection peer = peers[destinationProcess];
                    ring = new OutgoingRing(
                            index,
                            config.ringBytes(),
                            config.writeThreshold(),
                            peer.rings.segment().asSlice(index * ringBytes, ringBytes),
                            peer,
                            peer.rings,
                            index * ringBytes,
                            (pairs + index) * ringBytes,
                            null);
                    peer.outgoing[index] = ring;
                }
                outgoing[writer][destination] = ring;
            }
        }
        this.networkThread = new NetworkThread(this, completionQueue, peers);
        this.networkThreadHandle = Thread.ofPlatform()
                .daemon()
                .name("middleware-network-p" + process)
                .unstarted(networkThread);
        this.workers = new MiddlewareWorker[n];
        for (int local0 = 0; local0 < n; local0++) {
            workers[local0] = new MiddlewareWorker(
                    this,
                    config,
                    process * n + local0,
                    slots[local0],
                    ready[local0],
                    incoming[local0],
                    outgoing[local0],
                    arena);
        }
    }

    /**
     * Opens the middleware of process {@code exchange.nodeIndex()} on {@code fabric}: allocates everything, exchanges
     * queue pair addresses and region keys through {@code exchange} (two rounds, keys {@code middleware.addresses}
     * then {@code middleware.connected}: "connected and receives posted"), and starts the network thread. The fabric
     * and the exchange stay the caller's; the exchange has one node per process.
     */
    public static ShuffleMiddleware open(Fabric fabric, MiddlewareConfig config, PeerExchange exchange) {
        return open(fabric, config, exchange, "middleware");
    }

    /**
     * {@link #open(Fabric, MiddlewareConfig, PeerExchange)} with the exchange's keys under {@code keyPrefix}
     * ({@code keyPrefix.addresses}, {@code keyPrefix.connected}), for an exchange that opens more than one middleware.
     */
    public static ShuffleMiddleware open(
            Fabric fabric, MiddlewareConfig config, PeerExchange exchange, String keyPrefix) {
        Objects.requireNonNull(fabric, "fabric is null");
        Objects.requireNonNull(keyPrefix, "keyPrefix is null");
        Objects.requireNonNull(config, "config is null");
        int process = checkExchange(config, exchange);
        ShuffleMiddleware middleware = new ShuffleMiddleware(config, process, fabric);
        try {
            byte[][] all = exchange.allGather(keyPrefix + ".addresses", middleware.addresses());
            middleware.connect(fabric, all);
            exchange.allGather(keyPrefix + ".connected", new byte[0]);
            middleware.networkThreadHandle.start();
            return middleware;
        } catch (RuntimeException e) {
            middleware.close();
            throw e;
        }
    }

    private byte[] addresses() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            for (PeerConnection peer : peers) {
                byte[] address =
                        peer == null ? new byte[0] : peer.queuePair.address().toBytes();
                byte[] key = peer == null ? new byte[0] : peer.rings.remoteKey().toBytes();
                out.writeInt(address.length);
                out.write(address);
                out.writeInt(key.length);
                out.write(key);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    /** The exchange's node index, this process's index, once the exchange is known to have one node per process. */
    static int checkExchange(MiddlewareConfig config, PeerExchange exchange) {
        Objects.requireNonNull(exchange, "exchange is null");
        FaroException.checkArgument(
                exchange.nodes() == config.processes(),
                "the exchange has %d nodes, the config %d processes",
                exchange.nodes(),
                config.processes());
        return exchange.nodeIndex();
    }

    private void connect(Fabric fabric, byte[][] all) {
        FaroException.checkArgument(
                all.length == config.processes(), "the exchange returned %d contributions", all.length);
        for (int q = 0; q < peers.length; q++) {
            PeerConnection peer = peers[q];
            if (peer == null) {
                continue;
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(all[q]))) {
                byte[] address = null;
                byte[] key = null;
                for (int entry = 0; entry <= process; entry++) {
                    address = in.readNBytes(in.readInt());
                    key = in.readNBytes(in.readInt());
                }
                peer.queuePair.connect(fabric.importAddress(address));
                peer.remoteKey(fabric.importRemoteKey(key));
            } catch (IOException e) {
                throw new FaroException(
                        FaroException.Category.INVALID_ARGUMENT, "bad middleware address from process " + q);
            }
            for (int slot = 0; slot < PeerConnection.RECEIVE_SLOTS; slot++) {
                peer.postReceive(slot);
            }
        }
    }

    /** The endpoint of local worker {@code local} (0 … workersPerProcess − 1); one thread at a time uses it. */
    public MiddlewareWorker worker(int local) {
        FaroException.checkArgument(
                local >= 0 && local < workers.length, "local worker must be in 0..%d: %d", workers.length - 1, local);
        return workers[local];
    }

    public MiddlewareConfig config() {
        return config;
    }

    public int process() {
        return process;
    }

    /** Connections this process holds: one per peer process (the paper's m − 1). */
    public int connectionCount() {
        int count = 0;
        for (PeerConnection peer : peers) {
            count += peer == null ? 0 : 1;
        }
        return count;
    }

    /** Rings this process holds (outgoing plus incoming, same-process rings counted once). */
    public int ringCount() {
        int n = config.workersPerProcess();
        return connectionCount() * 2 * n * n + n * n;
    }

    /** A snapshot of the counters (approximate while workers run). */
    public MiddlewareCounters counters() {
        long writes = 0;
        long messages = 0;
        long entries = 0;
        for (PeerConnection peer : peers) {
            if (peer == null) {
                continue;
            }
            messages += peer.notificationMessagesSent;
            entries += peer.notificationEntriesSent;
            for (OutgoingRing ring : peer.outgoing) {
                writes += ring.writesPosted;
            }
        }
        long readMessages = 0;
        long readEntries = 0;
        long bytesSent = 0;
        long blocked = 0;
        for (MiddlewareWorker worker : workers) {
            readMessages += worker.readNotificationsSent;
            readEntries += worker.readEntriesSent;
            bytesSent += worker.remoteBytesSent;
            blocked += worker.sendBlocks;
        }
        return new MiddlewareCounters(
                writes,
                bytesSent,
                messages + readMessages,
                entries + readEntries,
                networkThread.notificationsReceived,
                blocked);
    }

    // ---- called by the network thread and workers ----

    void onWritten(int sourceProcess, int ringIndex, long position) {
        int n = config.workersPerProcess();
        int writer = ringIndex / n;
        int reader = ringIndex % n;
        incoming[reader][sourceProcess * n + writer].announce(position);
    }

    WorkerSlot writerSlot(OutgoingRing ring) {
        return slots[ring.index / config.workersPerProcess()];
    }

    /** First error wins; every worker is woken to see it. */
    void fail(FaroException error) {
        if (FAILURE.compareAndSet(this, null, error)) {
            for (WorkerSlot slot : slots) {
                slot.wake();
            }
        }
    }

    /** Whether the middleware failed (a peer died, a connection broke) or was closed: it moves no more rows. */
    public boolean unusable() {
        return failure != null || closed;
    }

    /** Throws the middleware's failure, if any, or CLOSED after close. Any thread. */
    void checkUsable() {
        FaroException error = failure;
        if (error != null) {
            throw new FaroException(error.category(), error.getMessage(), error);
        }
        if (closed) {
            throw new FaroException(FaroException.Category.CLOSED, "the shuffle middleware is closed");
        }
    }

    /** Stops the network thread and frees the connections, regions and rings. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        networkThread.stop();
        for (WorkerSlot slot : slots) {
            slot.wake();
        }
        if (networkThreadHandle.isAlive()) {
            try {
                networkThreadHandle.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (PeerConnection peer : peers) {
            if (peer != null) {
                peer.queuePair.close();
                peer.rings.close();
                peer.receives.close();
            }
        }
        completionQueue.close();
        arena.close();
    }
}
