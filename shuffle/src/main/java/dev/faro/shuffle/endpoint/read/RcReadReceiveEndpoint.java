package dev.faro.shuffle.endpoint.read;

import dev.faro.fabric.Access;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.RcConnections;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.WaitLoop;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import dev.faro.shuffle.ring.RingConsumer;
import dev.faro.shuffle.ring.RingDescriptor;
import dev.faro.shuffle.ring.RingProducer;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The RECEIVE side of RDMA READ over RC (TODS19 §5.4, Algorithm 4): one RC queue pair per source node, a
 * {@code ValidArr} ring per source in this endpoint's memory (written by the senders' PUTDATA), and
 * {@code buffersPerPeer} local landing buffers per source (the paper's {@code LocalArr}).
 *
 * <ul>
 *   <li>GETDATA: while a source's ValidArr has an entry and the source has a free landing buffer, posts an RDMA READ
 *       of the announced bytes into it; then polls the completion queue. A completed READ is decoded from the
 *       buffer's header and handed out, with the sender's buffer address as {@link ShuffleBuffer#remoteAddress()}
 *       (an offset into the sender's buffer region).</li>
 *   <li>RELEASE: WRITEs the sender's buffer index into the sender's {@code FreeArr} ring for this node and returns
 *       the landing buffer to its source's pool.</li>
 * </ul>
 *
 * <p>End of stream: READs of one source are posted in ValidArr order on one queue pair, so they complete in that
 * order, and DEPLETED (the sender's last entry) is the last buffer of its source. GETDATA returns null once every
 * source's DEPLETED was handed out. The release of a source's last buffer is signaled, so close can wait until every
 * FreeArr WRITE completed.
 *
 * <p>Thread-safe (SE shares it): READs are issued by one thread at a time (so per-source order holds), completed
 * buffers pass through a FIFO, counters are atomic. Data path: allocation-free after construction.
 */
public final class RcReadReceiveEndpoint implements ReceiveEndpoint, RcConnections.CompletionSink {

    /** Blocked time counted by this endpoint's waits (see {@link WaitLoop}). */
    private final AtomicLong dataWaitNanos = new AtomicLong();

    private static final int DATA = 1;
    private static final int CONTROL = 2;
    private static final int CONTROL_SEND_DEPTH = 64;
    private static final int SIGNAL_INTERVAL = 16;

    private final int id;
    private final int nodes;
    private final int self;
    private final EndpointConfig config;
    private final boolean expectsData;
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final WaitLoop.Step receiveStep = this::tryReceive;
    private final RcConnections connections;
    private final MemoryRegion landingRegion;
    private final MemoryRegion validRingRegion;
    private final int ringCapacity;
    private final int senderBuffers;
    private final ShuffleBuffer[] buffers;
    /** Per source: free landing buffers (LocalArr). */
    private final ArrayBlockingQueue<ShuffleBuffer>[] landing;

    private final RingConsumer[] validRings;
    /** Per source, set by {@link #connect}: its FreeArr ring for this node, and the key of its buffers. */
    private final RingProducer[] freeRings;

    private final RemoteKey[] senderBufferKeys;
    /** Per landing buffer: the sender's buffer it was read from; written when the READ is posted. */
    private final int[] remoteIndex;
    /** Completed READs in completion order, waiting to be handed out. */
    private final ArrayBlockingQueue<ShuffleBuffer> ready;
    /** Per source: buffers released so far, and (once DEPLETED was handed out) how many there will be in all. */
    private final AtomicLongArray releases;

    private final AtomicLongArray finalReleases;
    private final boolean[] depleted;
    private final AtomicInteger depletedSources = new AtomicInteger();
    private final ReentrantLock issueLock = new ReentrantLock();
    /** Per source: makes counting a release and posting its FreeArr WRITE one step (see release). */
    private final ReentrantLock[] releaseLocks;

    private final ThreadLocal<RcConnections.Scratch> scratch = ThreadLocal.withInitial(RcConnections.Scratch::new);
    private volatile boolean ended;
    private volatile boolean closed;

    /**
     * @param self this node's index (the ring this endpoint writes at every sender)
     * @param expectsData whether any transmission group includes this node; if not, getData returns null at once
     */
    @SuppressWarnings("unchecked")
    public RcReadReceiveEndpoint(
            Fabric fabric, int id, int nodes, int self, boolean expectsData, EndpointConfig config) {
        this.id = id;
        this.nodes = nodes;
        this.self = self;
        this.config = config;
        this.expectsData = expectsData;
        this.ended = !expectsData;
        this.failure = new EndpointFailure(
                "receive endpoint " + id + " (" + config.design().paperName() + ")");
        this.waits = new WaitLoop(failure, config);
        int perSource = config.buffersPerPeer();
        this.ringCapacity = RcReadSendEndpoint.ringCapacity(config, nodes);
        this.senderBuffers = RcReadSendEndpoint.poolBuffers(config, nodes);
        this.connections = new RcConnections(
                fabric,
                nodes,
                perSource + CONTROL_SEND_DEPTH,
                1,
                RingDescriptor.SLOT_LENGTH,
                SIGNAL_INTERVAL,
                failure,
                config.stallTimeout(),
                this);
        MemoryRegion landingBuffers = null;
        try {
            landingBuffers =
                    fabric.register((long) nodes * perSource * config.bufferBytes(), EnumSet.of(Access.LOCAL_WRITE));
            this.validRingRegion = fabric.register(
                    RingDescriptor.regionLength(nodes, ringCapacity),
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        } catch (RuntimeException e) {
            if (landingBuffers != null) {
                landingBuffers.close();
            }
            connections.close();
            throw e;
        }
        this.landingRegion = landingBuffers;
        this.buffers = new ShuffleBuffer[nodes * perSource];
        this.landing = new ArrayBlockingQueue[nodes];
        this.validRings = new RingConsumer[nodes];
        for (int node = 0; node < nodes; node++) {
            landing[node] = new ArrayBlockingQueue<>(perSource);
            for (int i = 0; i < perSource; i++) {
                int index = node * perSource + i;
                buffers[index] = new ShuffleBuffer(
                        index,
                        landingRegion.segment().asSlice((long) index * config.bufferBytes(), config.bufferBytes()));
                landing[node].add(buffers[index]);
            }
            validRings[node] = new RingConsumer(
                    validRingRegion
                            .segment()
                            .asSlice(
                                    RingDescriptor.ringOffset(node, ringCapacity),
                                    RingDescriptor.ringStride(ringCapacity)),
                    ringCapacity);
        }
        this.freeRings = new RingProducer[nodes];
        this.senderBufferKeys = new RemoteKey[nodes];
        this.remoteIndex = new int[buffers.length];
        this.ready = new ArrayBlockingQueue<>(buffers.length);
        this.releases = new AtomicLongArray(nodes);
        this.releaseLocks = new ReentrantLock[nodes];
        for (int node = 0; node < nodes; node++) {
            releaseLocks[node] = new ReentrantLock();
        }
        this.finalReleases = new AtomicLongArray(nodes);
        for (int node = 0; node < nodes; node++) {
            finalReleases.set(node, -1);
        }
        this.depleted = new boolean[nodes];
    }

    public QueuePairAddress address(int node) {
        return connections.address(node);
    }

    /** The key of the ValidArr rings (ring {@code s} is written by the sender on node {@code s}). */
    public RemoteKey validRingKey() {
        return validRingRegion.remoteKey();
    }

    /**
     * Connects the queue pair for source {@code node} to that node's sending endpoint, whose buffers have
     * {@code bufferKey} and whose FreeArr region has {@code freeRingKey}.
     */
    public void connect(int node, QueuePairAddress peer, RemoteKey bufferKey, RemoteKey freeRingKey) {
        connections.connect(node, peer);
        senderBufferKeys[node] = bufferKey;
        freeRings[node] = new RingProducer(freeRingKey, RingDescriptor.ringOffset(self, ringCapacity), ringCapacity);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public ShuffleBuffer getData() {
        int index = waits.awaitData(receiveStep, dataWaitNanos, depleted);
        return index == WaitLoop.END_OF_STREAM ? null : buffers[index];
    }

    @Override
    public ShuffleBuffer poll() {
        int index = waits.attempt(receiveStep, 0);
        if (index == WaitLoop.IDLE) {
            return NOT_YET;
        }
        return index == WaitLoop.END_OF_STREAM ? null : buffers[index];
    }

    /** One try of GETDATA: the index of a buffer to hand out, {@link WaitLoop#END_OF_STREAM}, or a step code. */
    private int tryReceive(int unused) {
        ShuffleBuffer buffer = ready.poll();
        if (buffer != null) {
            return handOut(buffer).index();
        }
        if (ended) {
            return WaitLoop.END_OF_STREAM;
        }
        if (issueReads() + connections.drain() > 0) {
            return WaitLoop.PROGRESS;
        }
        checkSources();
        return WaitLoop.IDLE;
    }

    /** Posts a READ for every announced buffer that has a free landing buffer; one thread at a time. */
    private int issueReads() {
        if (!issueLock.tryLock()) {
            return 0;
        }
        try {
            RcConnections.Scratch staging = scratch.get();
            int issued = 0;
            for (int node = 0; node < nodes; node++) {
                RingConsumer ring = validRings[node];
                while (ring.hasEntry()) {
                    ShuffleBuffer local = landing[node].poll();
                    if (local == null) {
                        break;
                    }
                    long entry = ring.poll(); // the only consumer (issueLock), so the entry is still there
                    int remote = RingDescriptor.bufferIndex(entry);
                    int length = RingDescriptor.lengthBytes(entry);
                    if (remote < 0
                            || remote >= senderBuffers
                            || length < MessageHeaderDescriptor.LENGTH
                            || length > config.bufferBytes()) {
                        throw failure.fail(
                                "node " + node + " announced a bad buffer: index " + remote + ", length " + length);
                    }
                    remoteIndex[local.index()] = remote;
                    staging.request
                            .clear()
                            .requestId(RcConnections.requestId(DATA, node, local.index()))
                            .opcode(Opcode.READ)
                            .local(landingRegion, (long) local.index() * config.bufferBytes(), length)
                            .remote(senderBufferKeys[node], (long) remote * config.bufferBytes());
                    connections.post(node, staging.request, true);
                    issued++;
                }
            }
            return issued;
        } finally {
            issueLock.unlock();
        }
    }

    @Override
    public void onCompletion(WorkCompletion completion) {
        if (RcConnections.kind(completion.requestId()) == DATA) {
            ready.add(buffers[RcConnections.index(completion.requestId())]);
        }
        // CONTROL: a signaled FreeArr WRITE, accounted by its window
    }

    private ShuffleBuffer handOut(ShuffleBuffer local) {
        MemorySegment segment = local.segment();
        int payloadLength = MessageHeaderDescriptor.checkedPayloadLength(segment, 0, segment.byteSize());
        if (payloadLength == MessageHeaderDescriptor.NOT_A_HEADER) {
            throw failure.fail("a buffer with a bad header was read into landing buffer " + local.index());
        }
        if (payloadLength < 0) {
            throw failure.fail(
                    "a buffer with a bad payload length arrived: " + MessageHeaderDescriptor.payloadLength(segment, 0));
        }
        int source = local.index() / config.buffersPerPeer();
        StreamState state = MessageHeaderDescriptor.state(segment, 0);
        local.received(
                state,
                MessageHeaderDescriptor.source(segment, 0),
                source,
                payloadLength,
                (long) remoteIndex[local.index()] * config.bufferBytes());
        if (state == StreamState.DEPLETED) {
            // the source's last ValidArr entry was consumed: every buffer it announced is known now
            finalReleases.set(source, validRings[source].consumed());
            depleted[source] = true;
            if (depletedSources.incrementAndGet() == nodes) {
                ended = true;
            }
        }
        return local;
    }

    @Override
    public void release(ShuffleBuffer buffer) {
        failure.check();
        int source = buffer.index() / config.buffersPerPeer();
        int remote = (int) (buffer.remoteAddress() / config.bufferBytes());
        RcConnections.Scratch staging = scratch.get();
        freeRings[source].prepare(
                staging.request, staging.slot, RcConnections.requestId(CONTROL, source, 0), remote, 0);
        // the release of the source's last buffer is its last WRITE to that sender: signal it (see close). Counting
        // and posting happen under one lock, so with threads releasing concurrently (SE) the post counted last is
        // also posted last.
        releaseLocks[source].lock();
        try {
            boolean last = releases.incrementAndGet(source) == finalReleases.get(source);
            connections.post(source, staging.request, last);
        } finally {
            releaseLocks[source].unlock();
        }
        landing[source].add(buffer);
    }

    /** Fails if a source that has not finished lost its connection. */
    private void checkSources() {
        for (int node = 0; node < nodes; node++) {
            if (!depleted[node] && connections.isBroken(node)) {
                throw connections.failConnection(node);
            }
        }
    }

    @Override
    public void abandon() {
        failure.abandon();
    }

    /**
     * Waits until every FreeArr WRITE completed (the senders wait for them before they close), then frees
     * everything. Every buffer must have been released. A failed or unfinished stream just frees.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            if (expectsData && ended && !failure.failed()) {
                connections.awaitIdle();
            }
        } finally {
            closed = true;
            connections.close();
            landingRegion.close();
            validRingRegion.close();
        }
    }

    /**
     * After a complete stream whose every buffer was released: every FreeArr WRITE completed, as in {@link #close};
     * then no source is depleted. The rings and release counts are absolute and keep counting.
     */
    @Override
    public boolean recycle() {
        if (closed || failure.failed() || !ended || !ready.isEmpty() || !allLandingBuffersFree()) {
            return false;
        }
        if (expectsData) {
            connections.awaitIdle();
        }
        for (int node = 0; node < nodes; node++) {
            finalReleases.set(node, -1);
            depleted[node] = false;
        }
        depletedSources.set(0);
        ended = !expectsData;
        return true;
    }

    private boolean allLandingBuffersFree() {
        for (ArrayBlockingQueue<ShuffleBuffer> queue : landing) {
            if (queue.remainingCapacity() != 0) {
                return false;
            }
        }
        return true;
    }

    /** Nothing to grant: senders announce buffers in the ValidArr rings as soon as they have data. */
    @Override
    public void restart() {}

    @Override
    public long dataWaitNanos() {
        return dataWaitNanos.get();
    }

    @Override
    public String toString() {
        return "RcReadReceiveEndpoint[id=" + id + ", nodes=" + nodes + ", self=" + self + "]";
    }
}
