package dev.faro.fabric.shm;

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
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One node of the {@code shm} fabric: a directory {@code <shm.directory>/faro-<node id hex>} holding a file per
 * region, queue pair and completion queue (layouts in the {@code *Descriptor} classes), and one
 * {@link ProgressAgent} thread. Opening a node first removes directories left by processes that died. Other nodes'
 * files (and its own, as a peer sees them) are mapped through {@link PeerNode}s.
 *
 * <p>Coordination code; the data path lives in the queue pairs and completion queues.
 */
final class ShmFabric extends AbstractFabric<ShmMemoryRegion, ShmCompletionQueue> {

    private static final System.Logger LOG = System.getLogger(ShmFabric.class.getName());
    static final long STALE_UNREADABLE_AGE_MS = 60_000;

    static final FabricCapabilities CAPABILITIES =
            new FabricCapabilities(true, ShmUdQueuePair.MTU_BYTES, 1024, 1L << 30, 1 << 16, 1 << 22);

    private final Path base;
    private final Path directory;
    private final Arena nodeArena;
    private final MemorySegment nodeFile;
    private final ProgressAgent progress;

    /** Live queue pairs by number; copy-on-write under {@code this}. */
    private volatile ShmQueuePair[] queuePairs = new ShmQueuePair[16];

    private final List<ShmMemoryRegion> regions = new ArrayList<>();

    /**
     * Peers mapped now (this node included); the progress agent drops those that closed or died. Copy-on-write under
     * {@code this}.
     */
    private volatile PeerNode[] peers = new PeerNode[0];

    /** Peers with connected RC queue pairs, whose liveness the progress agent checks; copy-on-write. */
    private volatile PeerNode[] watched = new PeerNode[0];

    private final AtomicLong faultLosses = new AtomicLong();
    private final AtomicLong faultDuplicates = new AtomicLong();
    private final AtomicLong faultReorders = new AtomicLong();
    private final AtomicLong receiverNotReady = new AtomicLong();
    private final AtomicLong peerFailures = new AtomicLong();
    private final AtomicLong completionsLost = new AtomicLong();
    private final AtomicLong receivesMissedByClosedQueuePairs = new AtomicLong();

    /** {@link ShmFabricProvider#POPULATE_IMPORTED_OPTION}. */
    private final boolean populateImported;

    /** The switch-contention model ({@link ShmFabricProvider#PORT_BANDWIDTH_OPTION}); null when off. */
    final PortContention contention;

    private ShmFabric(
            FabricConfig config, long node, Path base, Path directory, Arena nodeArena, MemorySegment nodeFile) {
        super(config, node, ShmFabricProvider.NAME, CAPABILITIES, ShmCompletionQueue.class);
        this.populateImported =
                Boolean.parseBoolean(config.option(ShmFabricProvider.POPULATE_IMPORTED_OPTION, "false"));
        this.contention = PortContention.fromOptions(
                config.option(ShmFabricProvider.PORT_BANDWIDTH_OPTION, null),
                config.option(ShmFabricProvider.INPUT_BUFFER_OPTION, null));
        this.nodeArena = nodeArena;
        this.base = base;
        this.directory = directory;
        this.nodeFile = nodeFile;
        this.progress = new ProgressAgent(this, config.nodeName());
    }

    /** This node's file ({@link NodeDescriptor}). */
    MemorySegment nodeFile() {
        return nodeFile;
    }

    static ShmFabric open(FabricConfig config) {
        Path base = ShmDirectory.base(config.option(ShmFabricProvider.DIRECTORY_OPTION, null));
        StaleNodeSweeper.sweep(base, STALE_UNREADABLE_AGE_MS);
        long node;
        Path directory;
        while (true) {
            node = newNodeId();
            directory = base.resolve(NodeDescriptor.directoryName(node));
            try {
                Files.createDirectory(directory, ShmDirectory.OWNER_ONLY_DIRECTORY);
                break;
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // astronomically unlikely; draw again
            } catch (IOException e) {
                throw new FaroException(FaroException.Category.IO, "cannot create " + directory + ": " + e, e);
            }
        }
        Arena nodeArena = Arena.ofShared();
        try {
            MemorySegment nodeFile =
                    SharedMemory.create(directory.resolve(NodeDescriptor.FILE_NAME), NodeDescriptor.LENGTH, nodeArena);
            ProcessHandle self = ProcessHandle.current();
            long startMillis = self.info()
                    .startInstant()
                    .map(java.time.Instant::toEpochMilli)
                    .orElse(0L);
            NodeDescriptor.initialize(nodeFile, node, self.pid(), startMillis);
            ShmFabric fabric = new ShmFabric(config, node, base, directory, nodeArena, nodeFile);
            fabric.progress.start();
            return fabric;
        } catch (RuntimeException | Error e) {
            // e.g. the opening thread was interrupted inside a file operation: leave nothing behind
            nodeArena.close();
            SharedMemory.deleteTree(directory);
            throw e;
        }
    }

    @Override
    protected ShmMemoryRegion newRegion(int id, int key, long lengthBytes, Set<Access> access) {
        return new ShmMemoryRegion(this, directory, id, key, lengthBytes, access);
    }

    @Override
    protected void addRegion(ShmMemoryRegion region) {
        regions.add(region);
    }

    @Override
    protected void discardRegion(ShmMemoryRegion region) {
        region.close();
    }

    @Override
    protected ShmCompletionQueue newCompletionQueue(int id, int capacity) {
        return new ShmCompletionQueue(this, directory, id, capacity);
    }

    @Override
    public RcQueuePair createRcQueuePair(QueuePairConfig queuePairConfig) {
        return register(create(queuePairConfig, false));
    }

    @Override
    public UdQueuePair createUdQueuePair(QueuePairConfig queuePairConfig) {
        return register(create(queuePairConfig, true));
    }

    private ShmQueuePair create(QueuePairConfig queuePairConfig, boolean datagram) {
        int qpn = attachQueuePair(queuePairConfig);
        return datagram
                ? new ShmUdQueuePair(this, directory, qpn, queuePairConfig)
                : new ShmRcQueuePair(this, directory, qpn, queuePairConfig);
    }

    @SuppressWarnings("unchecked")
    private synchronized <T> T register(ShmQueuePair queuePair) {
        ShmQueuePair[] table = queuePairs;
        if (queuePair.queuePairNumber() >= table.length) {
            table = Arrays.copyOf(table, Math.max(queuePair.queuePairNumber() + 1, table.length * 2));
        } else {
            table = table.clone();
        }
        table[queuePair.queuePairNumber()] = queuePair;
        queuePairs = table;
        return (T) queuePair;
    }

    /** Called by a send CQ's poller. Data path. */
    void retireSendRequests(int qpn, long sequence) {
        ShmQueuePair[] table = queuePairs;
        if (qpn > 0 && qpn < table.length && table[qpn] != null) {
            table[qpn].retire(sequence);
        }
    }

    /** Called by a receive CQ's poller for an error completion of a receive. */
    void onReceiveError(int qpn) {
        ShmQueuePair[] table = queuePairs;
        if (qpn > 0 && qpn < table.length && table[qpn] != null) {
            table[qpn].onReceiveError();
        }
    }

    @Override
    public RemoteKey importRemoteKey(byte[] bytes) {
        ShmRemoteKey key = ShmRemoteKey.fromBytes(bytes);
        if (populateImported && key.node != node()) {
            key.resolve(this); // maps the region now, with its page tables filled, not inside the first request
        }
        return key;
    }

    @Override
    public QueuePairAddress importAddress(byte[] bytes) {
        return ShmQueuePairAddress.fromBytes(bytes);
    }

    /** The mapped view of {@code peerNode} (this node included), or null if no such node exists. */
    PeerNode peer(long peerNode) {
        PeerNode[] current = peers;
        for (PeerNode peer : current) {
            if (peer.node == peerNode) {
                return peer;
            }
        }
        return mapPeer(peerNode);
    }

    private synchronized PeerNode mapPeer(long peerNode) {
        for (PeerNode peer : peers) {
            if (peer.node == peerNode) {
                return peer;
            }
        }
        if (isClosed()) {
            return null;
        }
        PeerNode peer = PeerNode.open(base, peerNode, populateImported).orElse(null);
        if (peer != null) {
            PeerNode[] grown = Arrays.copyOf(peers, peers.length + 1);
            grown[peers.length] = peer;
            peers = grown;
        }
        return peer;
    }

    /** Adds a peer to the liveness checks (an RC queue pair connected to it). */
    synchronized void watch(PeerNode peer) {
        for (PeerNode existing : watched) {
            if (existing == peer) {
                return;
            }
        }
        PeerNode[] grown = Arrays.copyOf(watched, watched.length + 1);
        grown[watched.length] = peer;
        watched = grown;
    }

    /** Progress agent: retries deferred requests; returns whether any queue pair still has deferred work. */
    boolean progressDeferred(long nowNs) {
        boolean pending = false;
        for (ShmQueuePair queuePair : queuePairs) {
            if (queuePair != null && queuePair.hasDeferredWork) {
                queuePair.progress(nowNs);
                pending |= queuePair.hasDeferredWork;
            }
        }
        return pending;
    }

    /**
     * Progress agent: unmaps the files whose owners retired them, and finds peers that closed or died: fails what is
     * connected to them and unmaps all their files.
     */
    void checkPeers() {
        for (PeerNode peer : peers) {
            if (peer.node == node() || peer.checkAlive()) {
                peer.releaseRetired();
                continue;
            }
            if (!peer.isFailed()) {
                onPeerGone(peer);
            }
            forget(peer);
        }
    }

    private void onPeerGone(PeerNode peer) {
        peer.markFailed();
        boolean crashed = !peer.isClosed();
        if (isWatched(peer)) {
            peerFailures.incrementAndGet();
            LOG.log(
                    crashed ? Level.WARNING : Level.DEBUG,
                    "fabric node {0}: peer node {1} {2}; failing the queue pairs connected to it",
                    nodeName(),
                    Long.toHexString(peer.node),
                    crashed ? "died" : "closed");
            for (ShmQueuePair queuePair : queuePairs) {
                if (queuePair != null) {
                    queuePair.onPeerFailed(peer.node);
                }
            }
        }
        if (crashed) {
            SharedMemory.deleteTree(peer.directory); // it cannot clean up after itself
        }
    }

    private boolean isWatched(PeerNode peer) {
        for (PeerNode existing : watched) {
            if (existing == peer) {
                return true;
            }
        }
        return false;
    }

    /** Drops a peer that closed or died and unmaps its files; a later lookup of the node finds nothing. */
    private void forget(PeerNode peer) {
        synchronized (this) {
            peers = without(peers, peer);
            watched = without(watched, peer);
        }
        peer.close();
    }

    private static PeerNode[] without(PeerNode[] table, PeerNode peer) {
        return Arrays.stream(table).filter(existing -> existing != peer).toArray(PeerNode[]::new);
    }

    /** The number of other nodes' and this node's files this fabric maps as a peer; for tests. */
    int mappedPeerFiles() {
        int files = 0;
        for (PeerNode peer : peers) {
            files += peer.mappedFiles();
        }
        return files;
    }

    void wakeProgress() {
        progress.wake();
    }

    void countFaultLoss() {
        faultLosses.incrementAndGet();
    }

    void countFaultDuplicate() {
        faultDuplicates.incrementAndGet();
    }

    void countFaultReorder() {
        faultReorders.incrementAndGet();
    }

    void countReceiverNotReady() {
        receiverNotReady.incrementAndGet();
    }

    void countCompletionLost() {
        completionsLost.incrementAndGet();
    }

    synchronized void forget(ShmMemoryRegion region) {
        regions.remove(region);
    }

    synchronized void forget(ShmQueuePair queuePair) {
        if (queuePair instanceof ShmUdQueuePair datagram) {
            receivesMissedByClosedQueuePairs.addAndGet(datagram.receivesMissedAtClose);
        }
        ShmQueuePair[] table = queuePairs.clone();
        if (queuePair.queuePairNumber() < table.length && table[queuePair.queuePairNumber()] == queuePair) {
            table[queuePair.queuePairNumber()] = null;
        }
        queuePairs = table;
    }

    @Override
    public FabricCounters counters() {
        long missed = receivesMissedByClosedQueuePairs.get();
        for (ShmQueuePair queuePair : queuePairs) {
            if (queuePair instanceof ShmUdQueuePair datagram) {
                missed += datagram.receivesMissed();
            }
        }
        return new FabricCounters(
                missed,
                faultLosses.get(),
                faultDuplicates.get(),
                faultReorders.get(),
                receiverNotReady.get(),
                peerFailures.get(),
                completionsLost.get());
    }

    /** Tells peers the node closed, stops the progress thread, then closes the queue pairs. */
    @Override
    protected void shutDown() {
        NodeDescriptor.markClosed(nodeFile);
        progress.stop();
        for (ShmQueuePair queuePair : queuePairs) {
            if (queuePair != null) {
                queuePair.close();
            }
        }
    }

    /** Closes the regions left, unmaps the peers' files and removes the node's directory. */
    @Override
    protected void releaseMemory() {
        List<ShmMemoryRegion> regionList;
        synchronized (this) {
            regionList = List.copyOf(regions);
        }
        regionList.forEach(ShmMemoryRegion::close);
        for (PeerNode peer : peers) {
            peer.close();
        }
        nodeArena.close();
        SharedMemory.deleteTree(directory);
    }

    @Override
    public String toString() {
        return "ShmFabric[" + nodeName() + ", node=" + Long.toHexString(node()) + "]";
    }
}
