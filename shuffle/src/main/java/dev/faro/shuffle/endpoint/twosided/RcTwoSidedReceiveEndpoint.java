package dev.faro.shuffle.endpoint.twosided;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.shuffle.buffer.BufferCounters;
import dev.faro.shuffle.buffer.BufferPool;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.WaitLoop;
import dev.faro.shuffle.protocol.CreditWriter;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The RECEIVE side of Send/Receive over RC (TODS19 §5.2, Algorithm 3): one RC queue pair per source node, and
 * {@code buffersPerPeer} registered receive buffers per source. RELEASE re-posts the buffer on its source's queue
 * pair, counts one more credit, and every {@code creditWriteBackFrequency} credits RDMA-writes the absolute credit,
 * inlined, into the sender's credit slot. GETDATA polls the completion queue.
 *
 * <p>End of stream: RC delivers in order, so a source's DEPLETED is its last data message; after it the endpoint
 * stops re-posting that source's buffers and writes a FINAL credit, up to which the sender pads with empty messages
 * (send/receive parity). GETDATA returns null once every source's DEPLETED was handed out.
 *
 * <p>Thread-safe (SE shares it across threads): one thread polls at a time; per-source state is guarded by a
 * per-source lock, so a release and the FINAL credit cannot interleave. Data path: allocation-free.
 */
public final class RcTwoSidedReceiveEndpoint implements ReceiveEndpoint {

    /** Blocked time counted by this endpoint's waits (see {@link WaitLoop}). */
    private final AtomicLong dataWaitNanos = new AtomicLong();

    private final int id;
    private final int nodes;
    private final int self;
    private final EndpointConfig config;
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final WaitLoop.Step receiveStep = this::tryReceive;
    private final CompletionQueue completionQueue;
    private final RcQueuePair[] queuePairs;
    private final BufferPool pool;
    private final ShuffleBuffer[] owned;
    /** The source each buffer is posted for, by pool index; written before the buffer is posted. */
    private final int[] sourceOf;

    private final BufferCounters counters = new BufferCounters();
    private final CreditWriter credits;
    private final ReentrantLock[] sourceLocks;
    private final boolean[] depleted;
    private final boolean expectsData;
    private final AtomicInteger depletedSources = new AtomicInteger();
    private final ReentrantLock pollLock = new ReentrantLock();
    private final WorkCompletion[] completions = WorkCompletion.array(1);
    private volatile boolean ended;
    private volatile boolean closed;

    /**
     * @param self this node's index (the credit slot this endpoint writes at every sender)
     * @param expectsData whether any transmission group includes this node; if not, getData returns null at once
     */
    public RcTwoSidedReceiveEndpoint(
            Fabric fabric, BufferPool pool, int id, int nodes, int self, boolean expectsData, EndpointConfig config) {
        this.id = id;
        this.nodes = nodes;
        this.self = self;
        this.config = config;
        this.expectsData = expectsData;
        this.ended = !expectsData;
        this.failure = new EndpointFailure(
                "receive endpoint " + id + " (" + config.design().paperName() + ")");
        this.waits = new WaitLoop(failure, config);
        int depth = config.buffersPerPeer();
        this.completionQueue = fabric.createCompletionQueue(nodes * depth);
        this.credits = new CreditWriter(fabric, nodes, self);
        this.queuePairs = new RcQueuePair[nodes];
        for (int node = 0; node < nodes; node++) {
            // credit writes complete on the writer's own queue, which it polls itself (never QUEUE_FULL)
            queuePairs[node] = fabric.createRcQueuePair(
                    new QueuePairConfig(credits.completionQueue(), completionQueue, CreditWriter.SEND_DEPTH, depth, 8));
        }
        this.pool = pool;
        this.owned = new ShuffleBuffer[expectsData ? nodes * depth : 0];
        this.sourceOf = new int[pool.maximumBuffers()];
        for (int i = 0; i < owned.length; i++) {
            owned[i] = pool.borrow();
            if (owned[i] == null) {
                throw new IllegalStateException("the buffer pool cannot lend " + owned.length
                        + " receive buffers: pool maximum=" + pool.maximumBuffers());
            }
            sourceOf[owned[i].index()] = i / depth;
            counters.borrowed(BufferCounters.State.WAIT);
        }
        this.sourceLocks = new ReentrantLock[nodes];
        for (int node = 0; node < nodes; node++) {
            sourceLocks[node] = new ReentrantLock();
        }
        this.depleted = new boolean[nodes];
    }

    public QueuePairAddress address(int node) {
        return queuePairs[node].address();
    }

    /** Connects the queue pair for source {@code node}; {@code creditKey} is that sender's credit region. */
    public void connect(int node, QueuePairAddress peer, RemoteKey creditKey) {
        queuePairs[node].connect(peer);
        credits.connect(node, creditKey);
    }

    /** Posts the initial receives and grants the initial credit; every sender must be connected by now. */
    public void start() {
        if (!expectsData) {
            return;
        }
        int depth = config.buffersPerPeer();
        for (int node = 0; node < nodes; node++) {
            sourceLocks[node].lock();
            try {
                for (int i = 0; i < depth; i++) {
                    counters.move(BufferCounters.State.WAIT, BufferCounters.State.TRANSMIT);
                    post(node, owned[node * depth + i]);
                }
                writeCredit(node, false);
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
        return index == WaitLoop.END_OF_STREAM ? null : pool.buffer(index);
    }

    @Override
    public ShuffleBuffer poll() {
        int index = waits.attempt(receiveStep, 0);
        if (index == WaitLoop.IDLE) {
            return NOT_YET;
        }
        return index == WaitLoop.END_OF_STREAM ? null : pool.buffer(index);
    }

    /** Polls one completion: the index of a buffer to hand out, {@link WaitLoop#END_OF_STREAM}, or a step code. */
    private int tryReceive(int unused) {
        if (ended) {
            return WaitLoop.END_OF_STREAM;
        }
        if (!pollLock.tryLock()) {
            return WaitLoop.IDLE;
        }
        try {
            if (ended) {
                return WaitLoop.END_OF_STREAM;
            }
            if (completionQueue.poll(completions, 1) != 1) {
                return WaitLoop.IDLE;
            }
            ShuffleBuffer buffer = onCompletion(completions[0]);
            return buffer == null ? WaitLoop.PROGRESS : buffer.index();
        } finally {
            pollLock.unlock();
        }
    }

    /** Decodes one completion; returns the buffer to hand out, or null for credit writes and padding. */
    private ShuffleBuffer onCompletion(WorkCompletion completion) {
        if (!completion.status().isSuccess()) {
            throw failure.fail("a receive failed: " + completion.status() + " on queue pair "
                    + completion.queuePairNumber() + " (a sender died or closed early)");
        }
        if (completion.opcode() != Opcode.RECEIVE) {
            return null; // not expected: credit writes complete on the credit writer's queue
        }
        ShuffleBuffer buffer = pool.buffer((int) completion.requestId());
        MemorySegment segment = buffer.segment();
        int payloadLength = MessageHeaderDescriptor.checkedPayloadLength(segment, 0, completion.byteLength());
        if (payloadLength < 0 || MessageHeaderDescriptor.LENGTH + payloadLength != completion.byteLength()) {
            throw failure.fail("a message with a bad header arrived in buffer " + buffer.index() + " ("
                    + completion.byteLength() + " bytes)");
        }
        if (MessageHeaderDescriptor.kind(segment, 0) == MessageHeaderDescriptor.KIND_PADDING) {
            counters.move(BufferCounters.State.TRANSMIT, BufferCounters.State.WAIT);
            return null; // consumes a receive to reach parity; not data
        }
        counters.move(BufferCounters.State.TRANSMIT, BufferCounters.State.CONSUME);
        int source = sourceOf[buffer.index()];
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
            writeCredit(source, true);
        } finally {
            sourceLocks[source].unlock();
        }
        if (depletedSources.incrementAndGet() == nodes) {
            ended = true;
        }
    }

    @Override
    public void release(ShuffleBuffer buffer) {
        int source = sourceOf[buffer.index()];
        sourceLocks[source].lock();
        try {
            if (depleted[source] || closed) {
                counters.move(BufferCounters.State.CONSUME, BufferCounters.State.WAIT);
                return; // no more receives for a finished source: the sender pads up to the FINAL credit only
            }
            counters.move(BufferCounters.State.CONSUME, BufferCounters.State.TRANSMIT);
            post(source, buffer);
            if (credits.unwritten(source) >= config.creditWriteBackFrequency()) {
                writeCredit(source, false);
            }
        } finally {
            sourceLocks[source].unlock();
        }
    }

    /** Caller holds the source's lock. */
    private void post(int source, ShuffleBuffer buffer) {
        queuePairs[source].postReceive(buffer.index(), buffer.region(), buffer.regionOffset(), config.bufferBytes());
        credits.credit(source);
    }

    /** RDMA-writes the absolute credit into the sender's slot, inlined. Caller holds the source's lock. */
    private void writeCredit(int source, boolean last) {
        if (!credits.write(queuePairs[source], source, last)) {
            throw failure.fail(
                    "a credit write failed (" + credits.failure() + "): node " + source + " failed or closed early");
        }
    }

    /** Credit writes posted so far, and how many waited for a send-queue slot (approximate). */
    public CreditWriter creditWriter() {
        return credits;
    }

    @Override
    public void abandon() {
        failure.abandon();
    }

    /**
     * Waits until the senders' padding has consumed every receive still posted (parity) and this endpoint's FINAL
     * credit writes have completed, then frees everything. A failed or unfinished stream just frees. (Closing the
     * credit queue pairs discards writes not carried out yet; a sender that used its credit up exactly reaches parity
     * before the FINAL write leaves, and would wait for it until its stall timeout.)
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            if (expectsData && ended && !failure.failed()) {
                if (waits.await(this::awaitParity, 0, null) == WaitLoop.STALLED) {
                    throw failure.fail("senders did not reach send/receive parity for " + waits.stall());
                }
                if (!credits.awaitSignaledWrites(config.stallTimeout())) {
                    throw failure.fail("the FINAL credit writes did not complete within " + config.stallTimeout());
                }
            }
        } finally {
            closed = true;
            for (RcQueuePair queuePair : queuePairs) {
                queuePair.close();
            }
            completionQueue.close();
            credits.close();
            for (ShuffleBuffer buffer : owned) {
                pool.giveBack(buffer);
            }
        }
    }

    /**
     * After a complete stream whose every buffer was released: parity and the FINAL credit writes as in {@link #close},
     * then every receive buffer waits (none posted) and no credit was granted: {@link #restart} starts the next stream.
     */
    @Override
    public boolean recycle() {
        if (closed || failure.failed() || !ended || counters.count(BufferCounters.State.CONSUME) != 0) {
            return false;
        }
        if (expectsData) {
            if (waits.await(this::drainPadding, 0, null) == WaitLoop.STALLED) {
                throw failure.fail("senders did not reach send/receive parity for " + waits.stall());
            }
            if (!credits.awaitSignaledWrites(config.stallTimeout())) {
                throw failure.fail("the FINAL credit writes did not complete within " + config.stallTimeout());
            }
        }
        credits.resetCredits();
        Arrays.fill(depleted, false);
        depletedSources.set(0);
        ended = !expectsData;
        return true;
    }

    @Override
    public void restart() {
        start();
    }

    /**
     * A step of recycle: takes the senders' padding in, until no receive is posted and none has an unpolled completion
     * (a completion left in the queue would be taken for the next stream's).
     */
    private int drainPadding(int unused) {
        if (counters.count(BufferCounters.State.TRANSMIT) == 0) {
            return WaitLoop.DONE;
        }
        if (completionQueue.poll(completions, 1) != 1) {
            return WaitLoop.IDLE;
        }
        if (onCompletion(completions[0]) != null) {
            throw failure.fail("data arrived after every source's DEPLETED");
        }
        return WaitLoop.PROGRESS;
    }

    /** A step of close: ends once the senders' padding has consumed every receive still posted. */
    private int awaitParity(int unused) {
        for (RcQueuePair queuePair : queuePairs) {
            if (queuePair.postedReceives() > 0) {
                return WaitLoop.IDLE;
            }
        }
        return WaitLoop.DONE;
    }

    /** The states of this endpoint's buffers (the RC receive side keeps a fixed depth per source). */
    public BufferCounters bufferCounters() {
        return counters;
    }

    @Override
    public long dataWaitNanos() {
        return dataWaitNanos.get();
    }

    @Override
    public long creditWrites() {
        return credits.writeCount();
    }

    @Override
    public String toString() {
        return "RcTwoSidedReceiveEndpoint[id=" + id + ", nodes=" + nodes + ", self=" + self + "]";
    }
}
