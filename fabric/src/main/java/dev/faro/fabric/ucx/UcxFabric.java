package dev.faro.fabric.ucx;

import dev.faro.fabric.Access;
import dev.faro.fabric.FabricCapabilities;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricCounters;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.UdQueuePair;
import dev.faro.fabric.spi.AbstractFabric;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpMemMapParams;
import org.openucx.jucx.ucp.UcpMemory;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;

/**
 * One node of the {@code ucx} fabric: a UCP context (RMA and active messages) and one worker, driven by the node's
 * {@link UcxAgent} thread, the only thread that calls UCX. Registered memory is allocated by UCX; the tables the
 * progress thread reads ({@link #regions}, {@link #queuePairs}) are replaced copy-on-write under {@code this}.
 *
 * <p>Coordination code.
 */
final class UcxFabric extends AbstractFabric<UcxMemoryRegion, UcxCompletionQueue> {

    private static final System.Logger LOG = System.getLogger(UcxFabric.class.getName());

    /** The six designs that need no UD queue pair, named in the refusal of one. */
    static final String UD_FREE_DESIGNS = "SEMQ/SR, MEMQ/SR, SEMQ/RD, MEMQ/RD, SEMQ/WR, MEMQ/WR";

    static final FabricCapabilities CAPABILITIES = new FabricCapabilities(false, 0, 1024, 1L << 30, 1 << 16, 1 << 22);

    private final UcpContext context;
    private final UcpWorker worker;
    private final byte[] workerAddress;
    private final UcxAgent agent;
    final UcxCounters counters = new UcxCounters();
    private final String libraryVersion;

    private volatile UcxMemoryRegion[] regions = new UcxMemoryRegion[0];
    private volatile UcxRcQueuePair[] queuePairs = new UcxRcQueuePair[1];
    private volatile UcxRcQueuePair[] queuePairArray = new UcxRcQueuePair[0];
    /** Regions whose memory UCX still maps; guarded by {@code this}. */
    private final Set<UcxMemoryRegion> mapped = new HashSet<>();

    private UcxFabric(
            FabricConfig config,
            UcxOptions options,
            String libraryVersion,
            long node,
            UcpContext context,
            UcpWorker worker) {
        super(config, node, UcxFabricProvider.NAME, CAPABILITIES, UcxCompletionQueue.class);
        this.context = context;
        this.worker = worker;
        this.libraryVersion = libraryVersion;
        var address = worker.getAddress();
        this.workerAddress = new byte[address.remaining()];
        address.get(workerAddress);
        this.agent = new UcxAgent(this, worker, options);
    }

    static UcxFabric open(FabricConfig config) {
        UcxOptions options = UcxOptions.of(config);
        String version = UcxLibrary.load(options.processSettings());
        UcpParams params = new UcpParams()
                .requestRmaFeature()
                .requestAmFeature()
                .requestWakeupFeature()
                .setMtWorkersShared(false);
        for (var setting : options.contextSettings().entrySet()) {
            params.setConfig(setting.getKey(), setting.getValue());
        }
        UcpContext context;
        try {
            context = new UcpContext(params);
        } catch (UcxException e) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "UCX refuses the configuration " + options.contextSettings() + " of node " + config.nodeName()
                            + ": " + e.getMessage(),
                    e);
        }
        UcpWorker worker;
        try {
            worker = context.newWorker(new UcpWorkerParams());
        } catch (UcxException e) {
            context.close();
            throw new FaroException(
                    FaroException.Category.IO,
                    "UCX cannot create a worker for node " + config.nodeName() + ": " + e.getMessage(),
                    e);
        }
        long node = newNodeId();
        UcxFabric fabric = new UcxFabric(config, options, version, node, context, worker);
        fabric.agent.start();
        LOG.log(
                Level.DEBUG,
                "fabric node {0} ({1}) on libucx {2}, settings {3}",
                config.nodeName(),
                Long.toHexString(node),
                version,
                options.contextSettings());
        return fabric;
    }

    UcxAgent agent() {
        return agent;
    }

    byte[] workerAddress() {
        return workerAddress;
    }

    @Override
    protected UcxMemoryRegion newRegion(int id, int key, long lengthBytes, Set<Access> access) {
        UcxMemoryRegion region = agent.call(() -> {
            UcpMemory memory;
            try {
                memory = context.memoryMap(new UcpMemMapParams().allocate().setLength(lengthBytes));
            } catch (UcxException e) {
                throw new FaroException(
                        FaroException.Category.IO,
                        "UCX cannot allocate and register " + lengthBytes
                                + " bytes on node " + nodeName() + ": " + e.getMessage()
                                + " (RDMA registration needs RLIMIT_MEMLOCK: ulimit -l unlimited)",
                        e);
            }
            return new UcxMemoryRegion(this, id, key, lengthBytes, access, memory);
        });
        region.segment().fill((byte) 0);
        return region;
    }

    @Override
    protected void addRegion(UcxMemoryRegion region) {
        UcxMemoryRegion[] grown = Arrays.copyOf(regions, Math.max(regions.length, region.id + 1));
        grown[region.id] = region;
        regions = grown;
        mapped.add(region);
    }

    @Override
    protected void discardRegion(UcxMemoryRegion region) {
        unmap(region);
    }

    @Override
    protected UcxCompletionQueue newCompletionQueue(int id, int capacity) {
        return new UcxCompletionQueue(this, id, capacity);
    }

    @Override
    public RcQueuePair createRcQueuePair(QueuePairConfig queuePairConfig) {
        UcxRcQueuePair queuePair = new UcxRcQueuePair(this, attachQueuePair(queuePairConfig), queuePairConfig);
        synchronized (this) {
            int qpn = queuePair.queuePairNumber();
            UcxRcQueuePair[] table = Arrays.copyOf(queuePairs, Math.max(queuePairs.length, qpn + 1));
            table[qpn] = queuePair;
            queuePairs = table;
            UcxRcQueuePair[] grown = Arrays.copyOf(queuePairArray, queuePairArray.length + 1);
            grown[queuePairArray.length] = queuePair;
            queuePairArray = grown;
        }
        return queuePair;
    }

    /**
     * Always refused: UCX has no unreliable datagram service (its UD transport is a reliable protocol underneath),
     * and emulating drops over reliable messages would only pretend.
     */
    @Override
    public UdQueuePair createUdQueuePair(QueuePairConfig queuePairConfig) {
        throw new FaroException(
                FaroException.Category.NOT_SUPPORTED,
                "the ucx fabric has no UD queue pairs (UCX"
                        + " offers no unreliable datagrams): use a UD-free design (" + UD_FREE_DESIGNS
                        + "), or the shm or net provider for SESQ/SR and MESQ/SR");
    }

    @Override
    public RemoteKey importRemoteKey(byte[] bytes) {
        return UcxRemoteKey.fromBytes(bytes);
    }

    @Override
    public QueuePairAddress importAddress(byte[] bytes) {
        return UcxQueuePairAddress.fromBytes(bytes);
    }

    // ======================================================================== what the progress thread reads

    UcxMemoryRegion region(int id) {
        UcxMemoryRegion[] table = regions;
        return id >= 0 && id < table.length ? table[id] : null;
    }

    UcxRcQueuePair queuePair(int qpn) {
        UcxRcQueuePair[] table = queuePairs;
        return qpn > 0 && qpn < table.length ? table[qpn] : null;
    }

    UcxRcQueuePair[] queuePairArray() {
        return queuePairArray;
    }

    void doorbell() {
        agent.doorbell();
    }

    void onConnected(UcxRcQueuePair queuePair, UcxQueuePairAddress peer) {
        agent.execute(() -> agent.onConnected(queuePair, peer));
    }

    // ============================================================================================ life cycle

    /** A region closed: peers revoke its key before its memory goes (bounded by the peer timeout). */
    void revoke(UcxMemoryRegion region) {
        if (isClosed()) {
            return;
        }
        synchronized (this) {
            UcxMemoryRegion[] table = regions.clone();
            table[region.id] = null;
            regions = table;
        }
        CountDownLatch done = new CountDownLatch(1);
        long timeoutNs = config().peerTimeout().toNanos();
        agent.execute(() -> agent.revoke(region.id, done, System.nanoTime() + timeoutNs));
        try {
            if (!done.await(timeoutNs + TimeUnit.SECONDS.toNanos(1), TimeUnit.NANOSECONDS)) {
                LOG.log(Level.DEBUG, "fabric node {0}: revoking region {1} timed out", nodeName(), region.id);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Unmaps a region's memory (on the progress thread, or here once it stopped). */
    void unmap(UcxMemoryRegion region) {
        synchronized (this) {
            if (!mapped.remove(region)) {
                return;
            }
        }
        if (isClosed() || agent.onAgentThread()) {
            region.memory.deregister();
        } else {
            agent.execute(region.memory::deregister);
        }
    }

    void forget(UcxRcQueuePair queuePair) {
        synchronized (this) {
            UcxRcQueuePair[] table = queuePairs.clone();
            table[queuePair.queuePairNumber()] = null;
            queuePairs = table;
            queuePairArray =
                    Arrays.stream(queuePairArray).filter(q -> q != queuePair).toArray(UcxRcQueuePair[]::new);
        }
        // also while the fabric closes: the progress thread runs queued commands before it releases UCX, and held
        // messages must give their data back to UCX first
        agent.execute(() -> {
            // SENDs placed in the progress turn that saw the queue pair last are acknowledged at the end of that
            // turn, from the table it read: one closed right after its receive completed is no longer there
            queuePair.acknowledgePlaced();
            queuePair.releaseOutstanding();
            queuePair.receiver.dropHeldAfterClose();
        });
    }

    @Override
    public FabricCounters counters() {
        return new FabricCounters(0, 0, 0, 0, counters.receiverNotReady.sum(), counters.peerFailures.sum(), 0);
    }

    /**
     * Closes the queue pairs first (their forgetting runs on the progress thread, which runs queued commands before it
     * releases UCX), then stops the progress thread: it says GOODBYE, then releases UCX ({@link #releaseUcx}).
     */
    @Override
    protected void shutDown() {
        for (UcxRcQueuePair queuePair : queuePairArray) {
            queuePair.close();
        }
        agent.stop();
    }

    /** Nothing left: the progress thread unmapped every region when it released UCX. */
    @Override
    protected void releaseMemory() {}

    /** The progress thread's last act: unmaps what is left and closes the worker and the context. */
    void releaseUcx() {
        List<UcxMemoryRegion> left;
        synchronized (this) {
            left = List.copyOf(mapped);
            mapped.clear();
        }
        for (UcxMemoryRegion region : left) {
            region.markClosed();
            try {
                region.memory.deregister();
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "unmapping a region", e);
            }
        }
        worker.close();
        context.close();
    }

    @Override
    public String toString() {
        return "UcxFabric[" + nodeName() + ", node=" + Long.toHexString(node()) + ", libucx " + libraryVersion + "]";
    }
}
