package dev.faro.shuffle.endpoint.read;

import dev.faro.fabric.Access;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.RcConnections;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.WaitLoop;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import dev.faro.shuffle.ring.RingConsumer;
import dev.faro.shuffle.ring.RingDescriptor;
import dev.faro.shuffle.ring.RingProducer;
import java.util.EnumSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SEND side of RDMA READ over RC (TODS19 §5.4, Algorithm 4; "MQ/RD"). The buffers are owned here, in a region
 * receivers may READ; one RC queue pair per destination node.
 *
 * <ul>
 *   <li>PUTDATA writes the header (the paper's metadata: state, source, length) into the buffer and announces it
 *       to every destination with one WRITE into that receiver's {@code ValidArr} ring: {buffer index, bytes to
 *       read}. No data moves; the receiver pulls it.</li>
 *   <li>ACQUIRE takes a buffer from the local pool; when the pool is empty it harvests the {@code FreeArr} rings
 *       (one per receiver, in this endpoint's memory, written by the receivers' RELEASE). A buffer sent to a group
 *       returns to the pool once every member has freed it.</li>
 *   <li>Close waits until every destination has freed every buffer it was sent (so no READ can still be reading
 *       this memory, and no FreeArr WRITE can still be on its way), and until its own ring WRITEs completed.</li>
 * </ul>
 *
 * <p>Ring capacities: a buffer sits in at most one ValidArr entry per receiver and in at most one FreeArr entry per
 * receiver until it is reused, so a ring never holds more entries than the pool has buffers.
 *
 * <p>Thread-safe (SE shares it): rings take CAS on their indexes, reference counts are atomic, completions are
 * drained by one thread at a time. Data path: allocation-free after construction.
 */
public final class RcReadSendEndpoint implements SendEndpoint, RcConnections.CompletionSink {

    /** Blocked time counted by this endpoint's waits (see {@link WaitLoop}). */
    private final AtomicLong bufferWaitNanos = new AtomicLong();

    private static final int CONTROL = 1;
    private static final int CONTROL_SEND_DEPTH = 64;
    private static final int SIGNAL_INTERVAL = 16;

    private final int id;
    private final int nodes;
    private final int self;
    private final EndpointConfig config;
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final WaitLoop.Step acquireStep = this::tryAcquire;
    private final RcConnections connections;
    private final MemoryRegion bufferRegion;
    private final MemoryRegion freeRingRegion;
    private final int ringCapacity;
    private final ShuffleBuffer[] buffers;
    private final ArrayBlockingQueue<ShuffleBuffer> free;
    /** Per buffer: destinations that have not freed it yet. */
    private final AtomicIntegerArray pendingFrees;

    private final RingConsumer[] freeRings;
    /** Per destination: its ValidArr ring; set by {@link #connect}. */
    private final RingProducer[] validRings;

    private final ThreadLocal<RcConnections.Scratch> scratch = ThreadLocal.withInitial(RcConnections.Scratch::new);
    private volatile boolean closed;

    /**
     * Creates the endpoint's resources on {@code fabric}; {@link #connect} it before use.
     *
     * @param id this endpoint's unique id
     * @param nodes the nodes of the shuffle (destinations are 0 .. nodes - 1)
     * @param self this node's index: the ValidArr ring this endpoint writes at every receiver
     */
    public RcReadSendEndpoint(Fabric fabric, int id, int nodes, int self, EndpointConfig config) {
        this.id = id;
        this.nodes = nodes;
        this.self = self;
        this.config = config;
        this.failure = new EndpointFailure(
                "send endpoint " + id + " (" + config.design().paperName() + ")");
        this.waits = new WaitLoop(failure, config);
        int poolBuffers = poolBuffers(config, nodes);
        this.ringCapacity = ringCapacity(config, nodes);
        this.connections = new RcConnections(
                fabric,
                nodes,
                CONTROL_SEND_DEPTH,
                1,
                RingDescriptor.SLOT_LENGTH,
                SIGNAL_INTERVAL,
                failure,
                config.stallTimeout(),
                this);
        MemoryRegion buffersRegion = null;
        try {
            buffersRegion = fabric.register(
                    (long) poolBuffers * config.bufferBytes(), EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ));
            this.freeRingRegion = fabric.register(
                    RingDescriptor.regionLength(nodes, ringCapacity),
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        } catch (RuntimeException e) {
            if (buffersRegion != null) {
                buffersRegion.close();
            }
            connections.close();
            throw e;
        }
        this.bufferRegion = buffersRegion;
        this.buffers = new ShuffleBuffer[poolBuffers];
        this.free = new ArrayBlockingQueue<>(poolBuffers);
        for (int i = 0; i < poolBuffers; i++) {
            buffers[i] = new ShuffleBuffer(
                    i, bufferRegion.segment().asSlice((long) i * config.bufferBytes(), config.bufferBytes()));
            free.add(buffers[i]);
        }
        this.pendingFrees = new AtomicIntegerArray(poolBuffers);
        this.freeRings = new RingConsumer[nodes];
        for (int node = 0; node < nodes; node++) {
            freeRings[node] = new RingConsumer(
                    freeRingRegion
                            .segment()
                            .asSlice(
                                    RingDescriptor.ringOffset(node, ringCapacity),
                                    RingDescriptor.ringStride(ringCapacity)),
                    ringCapacity);
        }
        this.validRings = new RingProducer[nodes];
    }

    /** Buffers in a sending endpoint's pool: {@code buffersPerPeer} per destination. */
    static int poolBuffers(EndpointConfig config, int nodes) {
        return config.buffersPerPeer() * nodes;
    }

    /** Slots of the FreeArr and ValidArr rings: one entry per pool buffer can be outstanding. */
    static int ringCapacity(EndpointConfig config, int nodes) {
        return RingDescriptor.capacityFor(poolBuffers(config, nodes));
    }

    /** The address of this endpoint's queue pair for {@code node}. */
    public QueuePairAddress address(int node) {
        return connections.address(node);
    }

    /** The key receivers READ the buffers with. */
    public RemoteKey bufferKey() {
        return bufferRegion.remoteKey();
    }

    /** The key of the FreeArr rings (ring {@code r} is written by the receiver on node {@code r}). */
    public RemoteKey freeRingKey() {
        return freeRingRegion.remoteKey();
    }

    /**
     * Connects the queue pair for {@code node} to that node's receiving endpoint, whose ValidArr region has
     * {@code validRingKey}.
     */
    public void connect(int node, QueuePairAddress peer, RemoteKey validRingKey) {
        connections.connect(node, peer);
        validRings[node] = new RingProducer(validRingKey, RingDescriptor.ringOffset(self, ringCapacity), ringCapacity);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public ShuffleBuffer acquire() {
        return buffers[
                waits.awaitOrFail(
                        acquireStep, 0, bufferWaitNanos, "no buffer was freed", " (receivers stopped reading?)")];
    }

    @Override
    public ShuffleBuffer tryAcquire() {
        int index = waits.attempt(acquireStep, 0);
        return index == WaitLoop.IDLE ? null : buffers[index];
    }

    /** A free buffer's index (its payload emptied), or what harvesting freed buffers and completions did. */
    private int tryAcquire(int unused) {
        ShuffleBuffer buffer = free.poll();
        if (buffer == null) {
            return harvestOrCheckPeers();
        }
        buffer.payloadLength(0);
        return buffer.index();
    }

    /** Takes freed buffers and completions: PROGRESS if there were any, else IDLE after checking the peers. */
    private int harvestOrCheckPeers() {
        if (harvest() + connections.drain() > 0) {
            return WaitLoop.PROGRESS;
        }
        checkOutstandingPeers();
        return WaitLoop.IDLE;
    }

    @Override
    public void putData(ShuffleBuffer buffer, int[] destinations, StreamState state) {
        failure.check();
        int length = MessageHeaderDescriptor.LENGTH + buffer.payloadLength();
        MessageHeaderDescriptor.write(
                buffer.segment(), 0, state, MessageHeaderDescriptor.KIND_DATA, id, buffer.payloadLength(), 0, 0);
        if (destinations.length == 0) {
            free.add(buffer);
            return;
        }
        pendingFrees.set(buffer.index(), destinations.length);
        RcConnections.Scratch staging = scratch.get();
        for (int node : destinations) {
            validRings[node].prepare(
                    staging.request,
                    staging.slot,
                    RcConnections.requestId(CONTROL, node, buffer.index()),
                    buffer.index(),
                    length);
            // DEPLETED is the last WRITE to this node: signal it, so that close can tell it completed
            connections.post(node, staging.request, state == StreamState.DEPLETED);
        }
    }

    /** Takes every FreeArr entry there is; a buffer freed by all its destinations goes back to the pool. */
    private int harvest() {
        int taken = 0;
        for (int node = 0; node < nodes; node++) {
            RingConsumer ring = freeRings[node];
            long entry;
            while ((entry = ring.poll()) != RingDescriptor.EMPTY) {
                int index = RingDescriptor.bufferIndex(entry);
                if (index < 0 || index >= buffers.length) {
                    throw failure.fail("node " + node + " freed buffer " + index + ", which does not exist");
                }
                int left = pendingFrees.decrementAndGet(index);
                if (left == 0) {
                    free.add(buffers[index]);
                } else if (left < 0) {
                    throw failure.fail("node " + node + " freed buffer " + index + " more often than it was sent");
                }
                taken++;
            }
        }
        return taken;
    }

    /** Fails if a destination that still holds buffers of ours lost its connection. */
    private void checkOutstandingPeers() {
        for (int node = 0; node < nodes; node++) {
            if (isOutstanding(node) && connections.isBroken(node)) {
                harvest(); // its last FreeArr WRITEs may have landed just before the break
                if (isOutstanding(node)) {
                    throw connections.failConnection(node);
                }
            }
        }
    }

    private boolean isOutstanding(int node) {
        RingProducer valid = validRings[node];
        return valid != null && valid.produced() != freeRings[node].consumed();
    }

    @Override
    public void onCompletion(WorkCompletion completion) {
        // ring WRITEs only; the window has accounted them
    }

    @Override
    public void abandon() {
        failure.abandon();
    }

    /**
     * Waits until every destination freed every buffer it was sent and this endpoint's WRITEs completed, then frees
     * the queue pairs and regions. A failed endpoint just frees.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!failure.failed()) {
                if (waits.await(this::awaitAllFreed, 0, null) == WaitLoop.STALLED) {
                    throw failure.fail("receivers did not free every buffer for " + waits.stall());
                }
                connections.awaitIdle();
            }
        } finally {
            connections.close();
            bufferRegion.close();
            freeRingRegion.close();
        }
    }

    /**
     * Every destination freed every buffer and the ring WRITEs completed, as in {@link #close}; then every buffer is
     * back in the pool. The rings keep counting (their indexes are absolute), so nothing else needs a reset.
     */
    @Override
    public boolean recycle() {
        if (closed || failure.failed()) {
            return false;
        }
        if (waits.await(this::awaitAllFreed, 0, null) == WaitLoop.STALLED) {
            throw failure.fail("receivers did not free every buffer for " + waits.stall());
        }
        connections.awaitIdle();
        return free.size() == buffers.length;
    }

    /** A step of close: ends once no destination holds a buffer of this endpoint. */
    private int awaitAllFreed(int unused) {
        for (int node = 0; node < nodes; node++) {
            if (isOutstanding(node)) {
                return harvestOrCheckPeers();
            }
        }
        return WaitLoop.DONE;
    }

    @Override
    public long bufferWaitNanos() {
        return bufferWaitNanos.get();
    }

    @Override
    public String toString() {
        return "RcReadSendEndpoint[id=" + id + ", nodes=" + nodes + "]";
    }
}
