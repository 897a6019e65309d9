package dev.faro.shuffle.endpoint.write;

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
import dev.faro.shuffle.protocol.CreditDescriptor;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import dev.faro.shuffle.ring.RingConsumer;
import dev.faro.shuffle.ring.RingDescriptor;
import dev.faro.shuffle.ring.RingProducer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The RECEIVE side of RDMA WRITE over RC (TODS19 §5.5, Algorithms 5–6): one RC queue pair per source node and
 * {@code buffersPerPeer} registered buffers per source, which the senders WRITE into. Buffer {@code s * k + i} is
 * lent to the sender on node {@code s} only.
 *
 * <ul>
 *   <li>RELEASE (and start, for every buffer) announces a free buffer by WRITEing its index into the sender's
 *       {@code FreeArr} ring for this node. In poll-buffers mode it first resets the buffer's seal; in poll-CQ mode it
 *       first posts a receive and, every {@code creditWriteBackFrequency} receives, WRITEs the absolute credit
 *       (receives are over-extended: twice the buffers are posted, since a receive names no buffer).</li>
 *   <li>GETDATA finds a written buffer as the {@link WriteCompletionMode} says: the smallest non-zero seal among a
 *       source's buffers; the head of a source's ValidArr ring; or a receive completion whose immediate names the
 *       buffer.</li>
 *   <li>DEPLETED is the last buffer of its source (RC order; see {@link SealDescriptor} for poll-buffers). When it
 *       is handed out this endpoint stops announcing that source's buffers and WRITEs a FINAL word into its credit
 *       slot (with the credit in poll-CQ mode): the sender pads up to it and may close, since nothing more will
 *       reach its memory. GETDATA returns null once every source's DEPLETED was handed out.</li>
 * </ul>
 *
 * <p>Thread-safe (SE shares it): a per-source lock orders releases against the FINAL word; the seal scan runs on
 * one thread at a time; rings and counters are atomic. Data path: allocation-free after construction.
 */
public final class RcWriteReceiveEndpoint implements ReceiveEndpoint, RcConnections.CompletionSink {

    /** Blocked time counted by this endpoint's waits (see {@link WaitLoop}). */
    private final AtomicLong dataWaitNanos = new AtomicLong();
    /** Credit words written back so far (any releasing thread, under the source's lock). */
    private final AtomicLong creditWriteCount = new AtomicLong();

    private static final int CONTROL = 2;
    private static final int RECEIVE = 4;
    private static final int CONTROL_SEND_DEPTH = 64;
    private static final int SIGNAL_INTERVAL = 16;

    private final int id;
    private final int nodes;
    private final int self;
    private final EndpointConfig config;
    private final WriteCompletionMode mode;
    private final boolean expectsData;
    private final int perSource;
    private final int receivesPerSource;
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final WaitLoop.Step receiveStep = this::tryReceive;
    private final RcConnections connections;
    private final MemoryRegion bufferRegion;
    /** Poll-MQ only: the ValidArr rings, one per source. */
    private final MemoryRegion validRingRegion;

    private final RingConsumer[] validRings;
    private final int ringCapacity;
    private final ShuffleBuffer[] buffers;
    /** Per source, set by {@link #connect}: its FreeArr ring for this node, and its credit words. */
    private final RingProducer[] freeRings;

    private final RemoteKey[] creditKeys;
    /** Poll-CQ: written buffers in completion order. */
    private final ArrayBlockingQueue<ShuffleBuffer> ready;
    /** Poll-buffers: 1 while a buffer is handed out or not yet announced again. */
    private final AtomicIntegerArray held;

    private final ReentrantLock[] sourceLocks;
    /** Per source, guarded by its lock: receives posted (the absolute credit), and the last credit written. */
    private final long[] posted;

    private final long[] written;
    /** Per source: DEPLETED was handed out; written under the source lock, read racily by the scans. */
    private final boolean[] depleted;

    private final AtomicInteger depletedSources = new AtomicInteger();
    private final ReentrantLock scanLock = new ReentrantLock();
    /** Where the next scan starts (fairness across sources); racy by design. */
    private int nextSource;

    private final ThreadLocal<RcConnections.Scratch> scratch = ThreadLocal.withInitial(RcConnections.Scratch::new);
    private volatile boolean ended;
    private volatile boolean closed;

    /**
     * @param self this node's index (the ring and credit slot this endpoint writes at every sender)
     * @param expectsData whether any transmission group includes this node; if not, getData returns null at once
     */
    public RcWriteReceiveEndpoint(
            Fabric fabric, int id, int nodes, int self, boolean expectsData, EndpointConfig config) {
        this.id = id;
        this.nodes = nodes;
        this.self = self;
        this.config = config;
        this.mode = config.writeCompletionMode();
        if (mode == WriteCompletionMode.POLL_BUFFERS) {
            SealDescriptor.checkBufferBytes(config.bufferBytes());
        }
        this.expectsData = expectsData;
        this.ended = !expectsData;
        this.failure = new EndpointFailure(
                "receive endpoint " + id + " (" + config.design().paperName() + ", " + mode + ")");
        this.waits = new WaitLoop(failure, config);
        this.perSource = config.buffersPerPeer();
        this.receivesPerSource = mode == WriteCompletionMode.POLL_COMPLETION_QUEUE ? 2 * perSource : 1;
        this.ringCapacity = RcWriteSendEndpoint.ringCapacity(config);
        this.connections = new RcConnections(
                fabric,
                nodes,
                CONTROL_SEND_DEPTH,
                receivesPerSource,
                RingDescriptor.SLOT_LENGTH,
                SIGNAL_INTERVAL,
                failure,
                config.stallTimeout(),
                this);
        MemoryRegion region = null;
        try {
            region = fabric.register(
                    (long) nodes * perSource * config.bufferBytes(),
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
            this.validRingRegion = mode == WriteCompletionMode.POLL_MESSAGE_QUEUE
                    ? fabric.register(
                            RingDescriptor.regionLength(nodes, ringCapacity),
                            EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE))
                    : null;
        } catch (RuntimeException e) {
            if (region != null) {
                region.close();
            }
            connections.close();
            throw e;
        }
        this.bufferRegion = region;
        int segmentBytes =
                config.bufferBytes() - (mode == WriteCompletionMode.POLL_BUFFERS ? SealDescriptor.SEAL_LENGTH : 0);
        this.buffers = new ShuffleBuffer[nodes * perSource];
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] =
                    new ShuffleBuffer(i, bufferRegion.segment().asSlice((long) i * config.bufferBytes(), segmentBytes));
        }
        this.validRings = new RingConsumer[nodes];
        if (validRingRegion != null) {
            for (int node = 0; node < nodes; node++) {
                validRings[node] = new RingConsumer(
                        validRingRegion
                                .segment()
                                .asSlice(
                                        RingDescriptor.ringOffset(node, ringCapacity),
                                        RingDescriptor.ringStride(ringCapacity)),
                        ringCapacity);
            }
        }
        this.freeRings = new RingProducer[nodes];
        this.creditKeys = new RemoteKey[nodes];
        this.ready = new ArrayBlockingQueue<>(buffers.length);
        this.held = new AtomicIntegerArray(buffers.length);
        this.sourceLocks = new ReentrantLock[nodes];
        for (int node = 0; node < nodes; node++) {
            sourceLocks[node] = new ReentrantLock();
        }
        this.posted = new long[nodes];
        this.written = new long[nodes];
        this.depleted = new boolean[nodes];
    }

    public QueuePairAddress address(int node) {
        return connections.address(node);
    }

    /** The key senders WRITE the buffers with. */
    public RemoteKey bufferKey() {
        return bufferRegion.remoteKey();
    }

    /** Poll-MQ: the key of the ValidArr rings (ring {@code s} is written by the sender on node {@code s}); else null. */
    public RemoteKey validRingKey() {
        return validRingRegion == null ? null : validRingRegion.remoteKey();
    }

    /**
     * Connects the queue pair for source {@code node} to that node's sending endpoint, whose FreeArr rings have
     * {@code freeRingKey} and whose credit words have {@code creditKey}.
     */
    public void connect(int node, QueuePairAddress peer, RemoteKey freeRingKey, RemoteKey creditKey) {
        connections.connect(node, peer);
        freeRings[node] = new RingProducer(freeRingKey, RingDescriptor.ringOffset(self, ringCapacity), ringCapacity);
        creditKeys[node] = creditKey;
    }

    /** Posts the first receives and credit (poll-CQ) and announces every buffer; every sender must be connected. */
    public void start() {
        if (!expectsData) {
            return;
        }
        for (int node = 0; node < nodes; node++) {
            sourceLocks[node].lock();
            try {
                if (mode == WriteCompletionMode.POLL_COMPLETION_QUEUE) {
                    for (int i = 0; i < receivesPerSource; i++) {
                        postReceive(node);
                    }
                    writeCredit(node, false);
                }
                for (int i = 0; i < perSource; i++) {
                    announce(node, node * perSource + i);
                }
            } finally {
                sourceLocks[node].unlock();
            }
        }
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
        ShuffleBuffer buffer = switch (mode) {
            case POLL_COMPLETION_QUEUE -> ready.poll();
            case POLL_MESSAGE_QUEUE -> pollValidRings();
            case POLL_BUFFERS -> scanSeals();
        };
        if (buffer != null) {
            return handOut(buffer).index();
        }
        if (ended) {
            return WaitLoop.END_OF_STREAM;
        }
        if (connections.drain() > 0) {
            return WaitLoop.PROGRESS;
        }
        checkSources();
        return WaitLoop.IDLE;
    }

    /** Poll-MQ: takes the head entry of the first source ring that has one. */
    private ShuffleBuffer pollValidRings() {
        int start = nextSource;
        for (int i = 0; i < nodes; i++) {
            int source = (start + i) % nodes;
            if (depleted[source]) {
                continue;
            }
            long entry = validRings[source].poll();
            if (entry != RingDescriptor.EMPTY) {
                nextSource = source + 1;
                ShuffleBuffer buffer = lentBuffer(source, RingDescriptor.bufferIndex(entry));
                int payloadLength = MessageHeaderDescriptor.payloadLength(buffer.segment(), 0);
                if (MessageHeaderDescriptor.LENGTH + payloadLength != RingDescriptor.lengthBytes(entry)) {
                    throw failure.fail("node " + source + " announced " + RingDescriptor.lengthBytes(entry)
                            + " bytes in buffer " + buffer.index() + ", whose header says " + payloadLength);
                }
                return buffer;
            }
        }
        return null;
    }

    /**
     * Poll-buffers: the smallest sealed buffer of the first source that has one; one scanner at a time. A pass over
     * the seals is no snapshot: it may read a slot just before an earlier WRITE lands there and another just after a
     * later one did. But once a seal is seen, every WRITE its source posted before it is visible, so a second pass
     * finds the source's true next buffer.
     */
    private ShuffleBuffer scanSeals() {
        if (!scanLock.tryLock()) {
            return null;
        }
        try {
            int start = nextSource;
            for (int i = 0; i < nodes; i++) {
                int source = (start + i) % nodes;
                if (depleted[source] || smallestSealed(source) < 0) {
                    continue;
                }
                int found = smallestSealed(source);
                held.set(found, 1);
                nextSource = source + 1;
                ShuffleBuffer buffer = buffers[found];
                long seal = SealDescriptor.read(
                        bufferRegion.segment(), SealDescriptor.sealOffset(found, config.bufferBytes()));
                if (MessageHeaderDescriptor.sequence(buffer.segment(), 0) != seal) {
                    throw failure.fail("buffer " + found + " has seal " + seal + " but its header says "
                            + MessageHeaderDescriptor.sequence(buffer.segment(), 0));
                }
                return buffer;
            }
            return null;
        } finally {
            scanLock.unlock();
        }
    }

    /** The index of {@code source}'s buffer with the smallest non-zero seal that is not handed out, or -1. */
    private int smallestSealed(int source) {
        MemorySegment region = bufferRegion.segment();
        long smallest = Long.MAX_VALUE;
        int found = -1;
        for (int index = source * perSource, end = index + perSource; index < end; index++) {
            if (held.get(index) != 0) {
                continue;
            }
            long seal = SealDescriptor.read(region, SealDescriptor.sealOffset(index, config.bufferBytes()));
            if (seal != 0 && seal < smallest) {
                smallest = seal;
                found = index;
            }
        }
        return found;
    }

    @Override
    public void onCompletion(WorkCompletion completion) {
        if (completion.opcode() != Opcode.RECEIVE_WRITE_WITH_IMMEDIATE) {
            return; // a signaled FreeArr or credit WRITE, accounted by its window
        }
        int immediate = completion.immediate();
        if (immediate == RcWriteSendEndpoint.PADDING_IMMEDIATE) {
            return; // consumes a receive to reach parity; not data
        }
        ready.add(lentBuffer(RcConnections.peer(completion.requestId()), immediate));
    }

    /** Buffer {@code index}, checked to be one this endpoint lends {@code source}. */
    private ShuffleBuffer lentBuffer(int source, int index) {
        if (index < source * perSource || index >= (source + 1) * perSource) {
            throw failure.fail("node " + source + " wrote buffer " + index + ", which it was not lent");
        }
        return buffers[index];
    }

    private ShuffleBuffer handOut(ShuffleBuffer buffer) {
        MemorySegment segment = buffer.segment();
        int payloadLength = MessageHeaderDescriptor.checkedPayloadLength(segment, 0, segment.byteSize());
        if (payloadLength == MessageHeaderDescriptor.NOT_A_HEADER) {
            throw failure.fail("a message with a bad header arrived in buffer " + buffer.index());
        }
        if (payloadLength < 0) {
            throw failure.fail("a message with a bad payload length arrived: "
                    + MessageHeaderDescriptor.payloadLength(segment, 0));
        }
        int source = buffer.index() / perSource;
        StreamState state = MessageHeaderDescriptor.state(segment, 0);
        buffer.received(state, MessageHeaderDescriptor.source(segment, 0), source, payloadLength, 0);
        if (state == StreamState.DEPLETED) {
            onDepleted(source);
        }
        return buffer;
    }

    private void onDepleted(int source) {
        sourceLocks[source].lock();
        try {
            depleted[source] = true;
            writeCredit(source, true); // the last WRITE to this sender: releases after it announce nothing
        } finally {
            sourceLocks[source].unlock();
        }
        if (depletedSources.incrementAndGet() == nodes) {
            ended = true;
        }
    }

    @Override
    public void release(ShuffleBuffer buffer) {
        failure.check();
        int index = buffer.index();
        int source = index / perSource;
        if (mode == WriteCompletionMode.POLL_BUFFERS) {
            SealDescriptor.clear(bufferRegion.segment(), SealDescriptor.sealOffset(index, config.bufferBytes()));
        }
        sourceLocks[source].lock();
        try {
            if (depleted[source] || closed) {
                return; // the source sent its last buffer: nothing more is announced to it
            }
            if (mode == WriteCompletionMode.POLL_COMPLETION_QUEUE) {
                postReceive(source);
                if (posted[source] - written[source] >= config.creditWriteBackFrequency()) {
                    writeCredit(source, false);
                }
            } else if (mode == WriteCompletionMode.POLL_BUFFERS) {
                held.set(index, 0); // after the seal reset, before the announcement
            }
            announce(source, index);
        } finally {
            sourceLocks[source].unlock();
        }
    }

    /** Poll-CQ: posts one receive for {@code source}'s WRITE_WITH_IMMEDIATEs. Caller holds the source's lock. */
    private void postReceive(int source) {
        connections.queuePair(source).postReceive(RcConnections.requestId(RECEIVE, source, 0), bufferRegion, 0, 0);
        posted[source]++;
    }

    /** WRITEs the credit word (FINAL: the last one) into the sender's slot, inlined. Caller holds the source's lock. */
    private void writeCredit(int source, boolean last) {
        long credit = mode == WriteCompletionMode.POLL_COMPLETION_QUEUE ? posted[source] : 0;
        RcConnections.Scratch staging = scratch.get();
        staging.word.set(ValueLayout.JAVA_LONG, 0, credit | (last ? CreditDescriptor.FINAL_FLAG : 0));
        staging.request
                .clear()
                .requestId(RcConnections.requestId(CONTROL, source, 0))
                .opcode(Opcode.WRITE)
                .inline(staging.word)
                .remote(creditKeys[source], CreditDescriptor.slotOffset(self));
        connections.post(source, staging.request, last);
        written[source] = posted[source];
        creditWriteCount.incrementAndGet();
    }

    /** WRITEs buffer {@code index} into {@code source}'s FreeArr ring. Caller holds the source's lock. */
    private void announce(int source, int index) {
        RcConnections.Scratch staging = scratch.get();
        freeRings[source].prepare(staging.request, staging.slot, RcConnections.requestId(CONTROL, source, 0), index, 0);
        connections.post(source, staging.request, false);
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
     * Waits until the senders' padding consumed every posted receive (poll-CQ parity) and every WRITE of this
     * endpoint completed, then frees everything. A failed or unfinished stream just frees.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            if (expectsData
                    && ended
                    && !failure.failed()
                    && waits.await(this::awaitSendersFinished, 0, null) == WaitLoop.STALLED) {
                throw failure.fail("senders did not finish for " + waits.stall()
                        + " (receives still posted or WRITEs incomplete)");
            }
        } finally {
            closed = true;
            connections.close();
            bufferRegion.close();
            if (validRingRegion != null) {
                validRingRegion.close();
            }
        }
    }

    /** A step of close: ends once every WRITE of this endpoint completed and no receive is posted any more. */
    private int awaitSendersFinished(int unused) {
        if (connections.isIdle() && !receivesPosted()) {
            return WaitLoop.DONE;
        }
        return connections.drain() > 0 ? WaitLoop.PROGRESS : WaitLoop.IDLE;
    }

    private boolean receivesPosted() {
        if (mode != WriteCompletionMode.POLL_COMPLETION_QUEUE) {
            return false;
        }
        for (int node = 0; node < nodes; node++) {
            if (connections.queuePair(node).postedReceives() > 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long dataWaitNanos() {
        return dataWaitNanos.get();
    }

    @Override
    public long creditWrites() {
        return creditWriteCount.get();
    }

    @Override
    public String toString() {
        return "RcWriteReceiveEndpoint[id=" + id + ", nodes=" + nodes + ", self=" + self + ", mode=" + mode + "]";
    }
}
