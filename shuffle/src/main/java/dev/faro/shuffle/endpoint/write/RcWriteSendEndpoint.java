package dev.faro.shuffle.endpoint.write;

import dev.faro.fabric.Access;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.RcConnections;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.WaitLoop;
import dev.faro.shuffle.protocol.CreditGate;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import dev.faro.shuffle.ring.RingConsumer;
import dev.faro.shuffle.ring.RingDescriptor;
import dev.faro.shuffle.ring.RingProducer;
import java.util.EnumSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SEND side of RDMA WRITE over RC (TODS19 §5.5, Algorithms 5–6; "MQ/WR"): one RC queue pair per destination
 * node and a pool of local source buffers. The destination buffers are owned by the receivers, which announce the
 * free ones in this endpoint's {@code FreeArr} rings (one per receiver).
 *
 * <ul>
 *   <li>PUTDATA writes the header, then for every destination takes a free remote buffer from its FreeArr (waiting
 *       while there is none) and WRITEs the buffer into it, as the {@link WriteCompletionMode} says: the whole
 *       buffer with its seal last (poll buffers); the message, then its index into the receiver's ValidArr (poll
 *       message queue); or a WRITE_WITH_IMMEDIATE naming the remote buffer, after claiming a credit (poll
 *       completion queue).</li>
 *   <li>ACQUIRE takes a local buffer whose WRITEs have all completed: one completion per group member.</li>
 *   <li>Close waits for each destination's FINAL word (the receiver saw DEPLETED and will write nothing more here),
 *       pads with empty WRITE_WITH_IMMEDIATEs up to the FINAL credit in poll-CQ mode (no receive stays posted),
 *       and waits for every WRITE to complete.</li>
 * </ul>
 *
 * <p>Thread-safe (SE shares it): FreeArr entries and credits are claimed with CAS, reference counts are atomic,
 * completions are drained by one thread at a time. Data path: allocation-free after construction.
 */
public final class RcWriteSendEndpoint implements SendEndpoint, RcConnections.CompletionSink {

    /** Blocked time counted by this endpoint's waits (see {@link WaitLoop}). */
    private final AtomicLong bufferWaitNanos = new AtomicLong();
    /** Blocked time counted by this endpoint's waits (see {@link WaitLoop}). */
    private final AtomicLong creditWaitNanos = new AtomicLong();

    static final int DATA = 1;
    static final int CONTROL = 2;
    static final int PADDING = 3;
    /** The immediate of a padding WRITE_WITH_IMMEDIATE (buffer indexes are non-negative). */
    static final int PADDING_IMMEDIATE = -1;

    private static final int CONTROL_SEND_DEPTH = 64;
    private static final int SIGNAL_INTERVAL = 16;

    private final int id;
    private final int nodes;
    private final int self;
    private final EndpointConfig config;
    private final WriteCompletionMode mode;
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final WaitLoop.Step acquireStep = this::tryAcquire;
    private final WaitLoop.Step freeBufferStep = this::tryTakeFreeBuffer;
    private final RcConnections connections;
    private final MemoryRegion bufferRegion;
    private final MemoryRegion freeRingRegion;
    private final CreditGate credits;
    private final int ringCapacity;
    private final ShuffleBuffer[] buffers;
    private final ArrayBlockingQueue<ShuffleBuffer> free;
    /** Per buffer: WRITEs not completed yet. */
    private final AtomicIntegerArray pendingCompletions;

    private final RingConsumer[] freeRings;
    /** Per destination, set by {@link #connect}: the key of its buffers, its ValidArr ring (poll-MQ only). */
    private final RemoteKey[] receiverBufferKeys;

    private final RingProducer[] validRings;
    private final AtomicLong sequence = new AtomicLong();
    /** Destinations sent DEPLETED (written by sending threads, read at close after they are done). */
    private final boolean[] depleted;

    private final ThreadLocal<RcConnections.Scratch> scratch = ThreadLocal.withInitial(RcConnections.Scratch::new);
    private volatile boolean closed;

    /**
     * Creates the endpoint's resources on {@code fabric}; {@link #connect} it before use.
     *
     * @param id this endpoint's unique id
     * @param nodes the nodes of the shuffle (destinations are 0 .. nodes - 1)
     * @param self this node's index: receivers number the buffers they lend this endpoint from
     *     {@code self * buffersPerPeer}, and the ValidArr ring and credit slot this endpoint uses are number
     *     {@code self}
     */
    public RcWriteSendEndpoint(Fabric fabric, int id, int nodes, int self, EndpointConfig config) {
        this.id = id;
        this.nodes = nodes;
        this.self = self;
        this.config = config;
        this.mode = config.writeCompletionMode();
        if (mode == WriteCompletionMode.POLL_BUFFERS) {
            SealDescriptor.checkBufferBytes(config.bufferBytes());
        }
        this.failure = new EndpointFailure(
                "send endpoint " + id + " (" + config.design().paperName() + ", " + mode + ")");
        this.waits = new WaitLoop(failure, config);
        int poolBuffers = config.buffersPerPeer() * nodes;
        this.ringCapacity = ringCapacity(config);
        // every pool buffer may be in flight to one destination, plus ValidArr entries and padding
        this.connections = new RcConnections(
                fabric,
                nodes,
                poolBuffers + CONTROL_SEND_DEPTH,
                1,
                RingDescriptor.SLOT_LENGTH,
                SIGNAL_INTERVAL,
                failure,
                config.stallTimeout(),
                this);
        MemoryRegion pool = null;
        MemoryRegion rings = null;
        try {
            pool = fabric.register((long) poolBuffers * config.bufferBytes(), EnumSet.of(Access.LOCAL_WRITE));
            rings = fabric.register(
                    RingDescriptor.regionLength(nodes, ringCapacity),
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
            this.credits = new CreditGate(fabric, nodes, waits, this::whileWaitingForCredit);
        } catch (RuntimeException e) {
            for (MemoryRegion region : new MemoryRegion[] {pool, rings}) {
                if (region != null) {
                    region.close();
                }
            }
            connections.close();
            throw e;
        }
        this.bufferRegion = pool;
        this.freeRingRegion = rings;
        int segmentBytes =
                config.bufferBytes() - (mode == WriteCompletionMode.POLL_BUFFERS ? SealDescriptor.SEAL_LENGTH : 0);
        this.buffers = new ShuffleBuffer[poolBuffers];
        this.free = new ArrayBlockingQueue<>(poolBuffers);
        for (int i = 0; i < poolBuffers; i++) {
            buffers[i] =
                    new ShuffleBuffer(i, bufferRegion.segment().asSlice((long) i * config.bufferBytes(), segmentBytes));
            free.add(buffers[i]);
        }
        this.pendingCompletions = new AtomicIntegerArray(poolBuffers);
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
        this.receiverBufferKeys = new RemoteKey[nodes];
        this.validRings = new RingProducer[nodes];
        this.depleted = new boolean[nodes];
    }

    /** Slots of the FreeArr and ValidArr rings: a receiver lends each sender {@code buffersPerPeer} buffers. */
    static int ringCapacity(EndpointConfig config) {
        return RingDescriptor.capacityFor(config.buffersPerPeer());
    }

    public QueuePairAddress address(int node) {
        return connections.address(node);
    }

    /** The key of the FreeArr rings (ring {@code r} is written by the receiver on node {@code r}). */
    public RemoteKey freeRingKey() {
        return freeRingRegion.remoteKey();
    }

    /** The key of the credit words (slot {@code r} is written by the receiver on node {@code r}). */
    public RemoteKey creditKey() {
        return credits.key();
    }

    /**
     * Connects the queue pair for {@code node} to that node's receiving endpoint, whose buffers have
     * {@code bufferKey} and whose ValidArr region has {@code validRingKey} (poll-MQ only; null otherwise).
     */
    public void connect(int node, QueuePairAddress peer, RemoteKey bufferKey, RemoteKey validRingKey) {
        connections.connect(node, peer);
        receiverBufferKeys[node] = bufferKey;
        if (mode == WriteCompletionMode.POLL_MESSAGE_QUEUE) {
            validRings[node] =
                    new RingProducer(validRingKey, RingDescriptor.ringOffset(self, ringCapacity), ringCapacity);
        }
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public ShuffleBuffer acquire() {
        return buffers[waits.awaitOrFail(acquireStep, 0, bufferWaitNanos, "no send buffer came back", "")];
    }

    @Override
    public ShuffleBuffer tryAcquire() {
        int index = waits.attempt(acquireStep, 0);
        return index == WaitLoop.IDLE ? null : buffers[index];
    }

    /** Each destination needs a free remote buffer in its FreeArr ring, and in poll-CQ mode a credit. */
    @Override
    public boolean canPut(ShuffleBuffer buffer, int[] destinations, StreamState state) {
        failure.check();
        for (int node : destinations) {
            if (!freeRings[node].hasEntry()) {
                return false;
            }
            if (mode == WriteCompletionMode.POLL_COMPLETION_QUEUE && credits.available(node) < 1) {
                return false;
            }
        }
        return true;
    }

    /** A free buffer's index (its payload emptied), or PROGRESS if completions were polled, else IDLE. */
    private int tryAcquire(int unused) {
        ShuffleBuffer buffer = free.poll();
        if (buffer == null) {
            return connections.drain() > 0 ? WaitLoop.PROGRESS : WaitLoop.IDLE;
        }
        buffer.payloadLength(0);
        return buffer.index();
    }

    @Override
    public void putData(ShuffleBuffer buffer, int[] destinations, StreamState state) {
        failure.check();
        int index = buffer.index();
        long messageSequence = sequence.incrementAndGet();
        MessageHeaderDescriptor.write(
                buffer.segment(),
                0,
                state,
                MessageHeaderDescriptor.KIND_DATA,
                id,
                buffer.payloadLength(),
                messageSequence,
                0);
        int length;
        if (mode == WriteCompletionMode.POLL_BUFFERS) {
            SealDescriptor.stage(
                    bufferRegion.segment(), SealDescriptor.sealOffset(index, config.bufferBytes()), messageSequence);
            length = config.bufferBytes(); // the seal is the last word of the buffer, so the WRITE covers it all
        } else {
            length = MessageHeaderDescriptor.LENGTH + buffer.payloadLength();
        }
        if (destinations.length == 0) {
            free.add(buffer);
            return;
        }
        pendingCompletions.set(index, destinations.length);
        RcConnections.Scratch staging = scratch.get();
        WorkRequest request = staging.request;
        for (int node : destinations) {
            if (state == StreamState.DEPLETED) {
                depleted[node] = true;
            }
            int remote = takeFreeBuffer(node);
            request.clear()
                    .requestId(RcConnections.requestId(DATA, node, index))
                    .local(bufferRegion, (long) index * config.bufferBytes(), length)
                    .remote(receiverBufferKeys[node], (long) remote * config.bufferBytes());
            if (mode == WriteCompletionMode.POLL_COMPLETION_QUEUE) {
                credits.claim(node, creditWaitNanos, "");
                request.opcode(Opcode.WRITE_WITH_IMMEDIATE).immediate(remote);
            } else {
                request.opcode(Opcode.WRITE);
            }
            connections.post(node, request, true);
            if (mode == WriteCompletionMode.POLL_MESSAGE_QUEUE) {
                // same queue pair, posted after the data: RC makes the data visible before the entry
                validRings[node].prepare(
                        request, staging.slot, RcConnections.requestId(CONTROL, node, 0), remote, length);
                connections.post(node, request, state == StreamState.DEPLETED);
            }
        }
    }

    /** Takes a free remote buffer of {@code node} from its FreeArr ring, waiting while there is none. */
    private int takeFreeBuffer(int node) {
        int remote = waits.await(freeBufferStep, node, bufferWaitNanos);
        if (remote == WaitLoop.STALLED) {
            throw failure.fail(
                    "node " + node + " freed no buffer for " + waits.stall() + " (receiver stopped consuming?)");
        }
        return remote;
    }

    private int tryTakeFreeBuffer(int node) {
        long entry = freeRings[node].poll();
        if (entry == RingDescriptor.EMPTY && connections.isBroken(node)) {
            entry = freeRings[node].poll(); // an entry may have landed just before the break
            if (entry == RingDescriptor.EMPTY) {
                throw connections.failConnection(node);
            }
        }
        if (entry == RingDescriptor.EMPTY) {
            return connections.drain() > 0 ? WaitLoop.PROGRESS : WaitLoop.IDLE;
        }
        int remote = RingDescriptor.bufferIndex(entry);
        int first = self * config.buffersPerPeer();
        if (remote < first || remote >= first + config.buffersPerPeer()) {
            throw failure.fail("node " + node + " announced buffer " + remote + ", not one it lends this node");
        }
        return remote;
    }

    /** Between tries to claim {@code node}'s credit: checks the connection and polls completions. */
    private int whileWaitingForCredit(int node) {
        if (connections.isBroken(node)) {
            throw connections.failConnection(node);
        }
        return connections.drain() > 0 ? WaitLoop.PROGRESS : WaitLoop.IDLE;
    }

    @Override
    public void onCompletion(WorkCompletion completion) {
        long requestId = completion.requestId();
        if (RcConnections.kind(requestId) == DATA) {
            int index = RcConnections.index(requestId);
            if (pendingCompletions.decrementAndGet(index) == 0) {
                free.add(buffers[index]);
            }
        }
        // CONTROL and PADDING: accounted by their window
    }

    @Override
    public void abandon() {
        failure.abandon();
    }

    /**
     * Waits for every DEPLETED destination's FINAL word, pads up to the FINAL credit (poll-CQ), waits until every
     * WRITE completed, then frees the queue pairs and regions. A failed endpoint just frees.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!failure.failed()) {
                for (int node = 0; node < nodes; node++) {
                    if (depleted[node]) {
                        finish(node);
                    }
                }
                connections.awaitIdle();
            }
        } finally {
            connections.close();
            bufferRegion.close();
            freeRingRegion.close();
            credits.close();
        }
    }

    /** Waits for {@code node}'s FINAL word; in poll-CQ mode pads with empty WRITE_WITH_IMMEDIATEs up to it. */
    private void finish(int node) {
        if (waits.await(this::padToFinalWord, node, null) == WaitLoop.STALLED) {
            throw failure.fail("node " + node + " sent no final word for " + waits.stall());
        }
    }

    /** A step of close: pads {@code node} with one empty WRITE_WITH_IMMEDIATE (poll-CQ), or ends at its FINAL word. */
    private int padToFinalWord(int node) {
        if (mode == WriteCompletionMode.POLL_COMPLETION_QUEUE && credits.tryClaim(node)) {
            WorkRequest request = scratch.get().request;
            request.clear()
                    .requestId(RcConnections.requestId(PADDING, node, 0))
                    .opcode(Opcode.WRITE_WITH_IMMEDIATE)
                    .immediate(PADDING_IMMEDIATE)
                    .local(bufferRegion, 0, 0)
                    .remote(receiverBufferKeys[node], 0);
            connections.post(node, request, true);
            return WaitLoop.PROGRESS;
        }
        if (mode == WriteCompletionMode.POLL_COMPLETION_QUEUE
                ? credits.isFinalAndUsedUp(node)
                : credits.isFinal(node)) {
            return WaitLoop.DONE;
        }
        if (connections.isBroken(node)) {
            if (credits.isFinal(node)) {
                return WaitLoop.PROGRESS; // it landed just before the break: pad (if needed) and finish
            }
            throw connections.failConnection(node);
        }
        return connections.drain() > 0 ? WaitLoop.PROGRESS : WaitLoop.IDLE;
    }

    @Override
    public long bufferWaitNanos() {
        return bufferWaitNanos.get();
    }

    @Override
    public long creditWaitNanos() {
        return creditWaitNanos.get();
    }

    @Override
    public String toString() {
        return "RcWriteSendEndpoint[id=" + id + ", nodes=" + nodes + ", mode=" + mode + "]";
    }
}
