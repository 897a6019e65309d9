package dev.faro.join.rma;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.bootstrap.PeerExchange;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A group of ranks (one per fabric node) that reach each other with one-sided RMA: MPI's communicator plus its RMA
 * machinery, on the Faro fabric. Opening it is the only step that uses the bootstrap {@link PeerExchange} (to swap
 * queue-pair addresses and the keys of the collective regions, like MPI's PMI); after that every collective
 * ({@link #collectives()}), window creation and put runs over the fabric.
 *
 * <p>It holds {@code lanes + 1} {@link RmaLane}s: lanes {@code 0 .. lanes-1} for the application's threads, one per
 * thread, and a control lane for the collectives. Lane {@code i} of every rank is connected to lane {@code i} of every
 * other rank (one RC queue pair per pair of ranks and lane), so notified puts arrive at the lane of the same index.
 *
 * <p>Failures: a peer that dies or closes turns the next wait involving it (a put's completion, a collective) into a
 * {@link FaroException.Category#NETWORK} failure, after the fabric's peer timeout at the latest (a collective that
 * waits for a silent peer probes it); no wait lasts longer than the configured timeout, and every wait calls the
 * cancellation check given at open, so a task the cluster cancels ends at once.
 *
 * <p>Coordination code. Lanes are thread-confined; {@link #collectives()} and {@link #createWindow} are called by one
 * thread at a time (in the same order at every rank).
 */
public final class RmaGroup implements AutoCloseable {

    private static final Set<Access> REMOTE_RIGHTS =
            EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
    private static final Set<Access> LOCAL_RIGHTS = EnumSet.of(Access.LOCAL_WRITE);

    /** The smallest page size of the platforms we run on; touching more often is harmless. */
    private static final long PAGE_BYTES = 4096;

    private final Fabric fabric;
    private final int rank;
    private final int size;
    private final RmaConfig config;
    private final Runnable cancellationCheck;
    private final List<RmaLane> lanes = new ArrayList<>();
    private final List<MemoryRegion> regions = new ArrayList<>();
    private Collectives collectives;
    /** Null without a cap. */
    private final BandwidthCap cap;

    private boolean closed;

    private RmaGroup(Fabric fabric, int rank, int size, RmaConfig config, Runnable cancellationCheck) {
        this.fabric = fabric;
        this.rank = rank;
        this.size = size;
        this.config = config;
        this.cancellationCheck = cancellationCheck;
        this.cap =
                config.bandwidthCapBytesPerSecond() > 0 ? new BandwidthCap(config.bandwidthCapBytesPerSecond()) : null;
    }

    /**
     * Opens this node's rank of a group: every node of {@code exchange} calls it with the same {@code name} and
     * configuration. Blocks until every rank has connected.
     *
     * @param cancellationCheck called in every wait; throws to end the wait (e.g. a cluster task's cancellation)
     */
    public static RmaGroup open(
            Fabric fabric, PeerExchange exchange, String name, RmaConfig config, Runnable cancellationCheck) {
        Objects.requireNonNull(fabric, "fabric is null");
        Objects.requireNonNull(exchange, "exchange is null");
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(config, "config is null");
        Objects.requireNonNull(cancellationCheck, "cancellationCheck is null");
        RmaGroup group = new RmaGroup(fabric, exchange.nodeIndex(), exchange.nodes(), config, cancellationCheck);
        try {
            group.connect(exchange, name);
            return group;
        } catch (RuntimeException e) {
            group.close();
            throw e;
        }
    }

    private void connect(PeerExchange exchange, String name) {
        int slotBytes = config.collectiveSlotBytes();
        MemoryRegion control = register(CollectiveDescriptor.regionLength(size, slotBytes), REMOTE_RIGHTS);
        MemoryRegion staging = register(slotBytes, LOCAL_RIGHTS);
        int laneCount = config.lanes() + 1;
        int sendDepth = config.sendQueueDepth() + 1; // + one probe
        int receiveDepth = config.notificationDepth();
        RcQueuePair[][] queuePairs = new RcQueuePair[laneCount][size];
        for (int lane = 0; lane < laneCount; lane++) {
            CompletionQueue completionQueue =
                    fabric.createCompletionQueue(Math.max(1, (size - 1) * (sendDepth + receiveDepth)));
            for (int peer = 0; peer < size; peer++) {
                if (peer != rank) {
                    queuePairs[lane][peer] =
                            fabric.createRcQueuePair(QueuePairConfig.of(completionQueue, sendDepth, receiveDepth));
                }
            }
            // the control lane's collectives use one request slot per rank
            RmaConfig laneConfig = lane < config.lanes() ? config : controlLaneConfig();
            lanes.add(
                    new RmaLane(this, lane, completionQueue, queuePairs[lane], register(16, LOCAL_RIGHTS), laneConfig));
        }
        byte[][] offers = exchange.allGather(name + "/rma-open", offer(control, queuePairs));
        RemoteKey[] controlKeys = new RemoteKey[size];
        for (int peer = 0; peer < size; peer++) {
            ByteBuffer in = ByteBuffer.wrap(offers[peer]);
            byte[] key = next(in);
            controlKeys[peer] = peer == rank ? control.remoteKey() : fabric.importRemoteKey(key);
            for (int lane = 0; lane < laneCount; lane++) {
                for (int target = 0; target < size; target++) {
                    byte[] address = next(in);
                    if (peer != rank && target == rank) {
                        queuePairs[lane][peer].connect(fabric.importAddress(address));
                    }
                }
            }
        }
        for (RmaLane lane : lanes) {
            for (int peer = 0; peer < size; peer++) {
                if (peer != rank) {
                    for (int i = 0; i < receiveDepth; i++) {
                        lane.postReceive(peer);
                    }
                }
            }
        }
        exchange.allGather(name + "/rma-connected", new byte[0]);
        collectives = new Collectives(this, lanes.get(config.lanes()), new RmaWindow(control, controlKeys), staging);
    }

    private RmaConfig controlLaneConfig() {
        return new RmaConfig(
                config.lanes(),
                config.sendQueueDepth(),
                Math.max(config.requestSlots(), size),
                config.notificationDepth(),
                config.collectiveSlotBytes(),
                config.timeout(),
                config.bandwidthCapBytesPerSecond());
    }

    private byte[] offer(MemoryRegion control, RcQueuePair[][] queuePairs) {
        List<byte[]> parts = new ArrayList<>();
        byte[] key = control.remoteKey().toBytes();
        parts.add(key);
        for (RcQueuePair[] lane : queuePairs) {
            for (RcQueuePair queuePair : lane) {
                parts.add(queuePair == null ? new byte[0] : queuePair.address().toBytes());
            }
        }
        ByteBuffer out =
                ByteBuffer.allocate(parts.stream().mapToInt(p -> p.length + 4).sum());
        for (byte[] part : parts) {
            out.putInt(part.length).put(part);
        }
        return out.array();
    }

    private static byte[] next(ByteBuffer in) {
        byte[] part = new byte[in.getInt()];
        in.get(part);
        return part;
    }

    private MemoryRegion register(long lengthBytes, Set<Access> access) {
        MemoryRegion region = fabric.register(lengthBytes, access);
        regions.add(region);
        prefault(region.segment());
        return region;
    }

    /**
     * Touches every page of a new region, as {@code ibv_reg_mr} does when it pins memory: the page faults belong to
     * registration (the thesis's window allocation), not to the first pass that writes the region. Writes zero into
     * memory that is zeroed already, before the region's key leaves this rank.
     */
    private static void prefault(MemorySegment segment) {
        for (long at = 0; at < segment.byteSize(); at += PAGE_BYTES) {
            segment.set(ValueLayout.JAVA_BYTE, at, (byte) 0);
        }
    }

    /** This rank, in {@code [0, size())}. */
    public int rank() {
        return rank;
    }

    /** The number of ranks. */
    public int size() {
        return size;
    }

    public RmaConfig config() {
        return config;
    }

    /** The fabric node this rank runs on. */
    public Fabric fabric() {
        return fabric;
    }

    /** Application lane {@code index}, in {@code [0, config().lanes())}; give each thread its own. */
    public RmaLane lane(int index) {
        FaroException.checkArgument(
                index >= 0 && index < config.lanes(), "lane out of range [0, %d): %d", config.lanes(), index);
        return lanes.get(index);
    }

    /** The collectives among the ranks (allreduce, scan, reduce-scatter, all-to-all, barrier, broadcast). */
    public Collectives collectives() {
        return collectives;
    }

    /**
     * Creates a window collectively: registers {@code lengthBytes} (zeroed) here and swaps keys with every rank
     * over the fabric. Every rank calls it in the same order; lengths may differ by rank. The group closes the
     * window when it closes, if the caller has not.
     */
    public RmaWindow createWindow(long lengthBytes) {
        MemoryRegion region = register(Math.max(8, lengthBytes), REMOTE_RIGHTS);
        byte[][] keyBytes = collectives.allGatherBytes(region.remoteKey().toBytes());
        RemoteKey[] keys = new RemoteKey[size];
        for (int peer = 0; peer < size; peer++) {
            keys[peer] = peer == rank ? region.remoteKey() : fabric.importRemoteKey(keyBytes[peer]);
        }
        return new RmaWindow(region, keys);
    }

    /** Registers local memory for puts' sources (pre-registered buffers); closed with the group. */
    public MemoryRegion registerLocal(long lengthBytes) {
        return register(lengthBytes, LOCAL_RIGHTS);
    }

    /**
     * Ends this rank's part in the group: waits for every lane's puts, then a barrier, then a last round after which
     * no rank touches another's memory. Call it at every rank before {@link #close()} on the success path; on a
     * failure path close directly.
     */
    public void finish() {
        for (int lane = 0; lane < config.lanes(); lane++) {
            lanes.get(lane).flush();
        }
        collectives.barrier();
        collectives.finalBarrier();
    }

    /** The emulated link of this rank, or null. */
    BandwidthCap cap() {
        return cap;
    }

    /** The deadline of a wait that starts now. */
    long deadline() {
        return System.nanoTime() + config.timeout().toNanos();
    }

    /** Fails a wait that passed its deadline, or was cancelled. */
    void checkWait(long deadlineNanos, String what) {
        cancellationCheck.run();
        if (System.nanoTime() - deadlineNanos > 0) {
            throw new FaroException(
                    FaroException.Category.TIMEOUT,
                    "rank " + rank + " waited " + config.timeout().toSeconds() + " s for " + what);
        }
    }

    /** Closes every lane, window and region of this rank. Idempotent; never throws. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (RmaLane lane : lanes) {
            try {
                lane.closeQueuePairs();
            } catch (RuntimeException e) {
                // closing anyway
            }
        }
        for (RmaLane lane : lanes) {
            try {
                lane.closeCompletionQueue();
            } catch (RuntimeException e) {
                // closing anyway
            }
        }
        for (MemoryRegion region : regions) {
            try {
                region.close();
            } catch (RuntimeException e) {
                // closing anyway
            }
        }
    }
}
