package dev.faro.shuffle.endpoint.twosided;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import dev.faro.shuffle.buffer.BufferCounters;
import dev.faro.shuffle.buffer.BufferPool;
import dev.faro.shuffle.buffer.SendBuffers;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.WaitLoop;
import dev.faro.shuffle.protocol.CreditGate;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The SEND side of Send/Receive over RC (TODS19 §5.2, Algorithm 3; "MQ/SR"): one RC queue pair per destination
 * node, a pool of registered buffers, and the stateless credit protocol — a destination's receiving endpoint
 * RDMA-writes the absolute number of receives it has posted into this endpoint's credit slot, and a SEND goes out
 * only while {@code credit > sent}.
 *
 * <p>ACQUIRE polls the completion queue: a buffer sent to a group returns to the pool after one completion per
 * member. Close reaches send/receive parity: after DEPLETED the receiver publishes a FINAL credit, and this endpoint
 * pads with empty messages up to it, so no receive stays posted.
 *
 * <p>Thread-safe (SE shares it across threads): {@code sent} words are claimed with CAS, buffer reference counts are
 * atomic, the completion queue is drained by whoever holds the poll lock. Data path: allocation-free.
 */
public final class RcTwoSidedSendEndpoint implements SendEndpoint {

    /** Blocked time counted by this endpoint's waits (see {@link WaitLoop}). */
    private final AtomicLong bufferWaitNanos = new AtomicLong();
    /** Blocked time counted by this endpoint's waits (see {@link WaitLoop}). */
    private final AtomicLong creditWaitNanos = new AtomicLong();

    private static final long PADDING_REQUEST_ID = -1;

    private final int id;
    private final int nodes;
    private final EndpointConfig config;
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final SendBuffers.Drainer drainer = this::drainCompletions;
    private final WaitLoop.Step acquireStep = this::tryAcquire;
    private final CompletionQueue completionQueue;
    private final RcQueuePair[] queuePairs;
    private final SendBuffers buffers;
    private final CreditGate credits;
    private final MemoryRegion paddingRegion;
    private final AtomicLong paddingPosted = new AtomicLong();
    private final AtomicLong paddingCompleted = new AtomicLong();
    /** Destinations that were sent DEPLETED (approximate while threads send; exact once they are done). */
    private final boolean[] depleted;

    private final ReentrantLock pollLock = new ReentrantLock();
    private final WorkCompletion[] completions = WorkCompletion.array(32);
    private final ThreadLocal<WorkRequest> requests = ThreadLocal.withInitial(WorkRequest::new);
    private volatile boolean closed;

    /**
     * Creates the endpoint's resources on {@code fabric}; {@link #connect} it before use.
     *
     * @param pool the node's registered buffers, lent according to the configured {@link
     *     dev.faro.shuffle.buffer.BufferPolicy}
     * @param id this endpoint's unique id
     * @param nodes the nodes of the shuffle (destinations are 0 .. nodes - 1)
     */
    public RcTwoSidedSendEndpoint(Fabric fabric, BufferPool pool, int id, int nodes, EndpointConfig config) {
        this.id = id;
        this.nodes = nodes;
        this.config = config;
        this.failure = new EndpointFailure(
                "send endpoint " + id + " (" + config.design().paperName() + ")");
        this.waits = new WaitLoop(failure, config);
        int maximumBuffers = config.bufferPolicy().maximumPerPeer() * nodes;
        // every buffer may be in flight to one destination, plus padding and slack
        int sendDepth = maximumBuffers + config.bufferPolicy().maximumPerPeer() + 2;
        this.completionQueue = fabric.createCompletionQueue(sendDepth * nodes + nodes);
        this.queuePairs = new RcQueuePair[nodes];
        for (int node = 0; node < nodes; node++) {
            queuePairs[node] =
                    fabric.createRcQueuePair(new QueuePairConfig(completionQueue, completionQueue, sendDepth, 1, 0));
        }
        this.buffers = new SendBuffers(pool, config.bufferPolicy(), nodes);
        this.credits = new CreditGate(fabric, nodes, waits, this::whileWaitingForCredit);
        this.paddingRegion = fabric.register(MessageHeaderDescriptor.LENGTH, EnumSet.of(Access.LOCAL_WRITE));
        MessageHeaderDescriptor.write(
                paddingRegion.segment(), 0, StreamState.DEPLETED, MessageHeaderDescriptor.KIND_PADDING, id, 0, 0, 0);
        this.depleted = new boolean[nodes];
    }

    /** What the receiving side needs: the queue pair address for {@code node} and this endpoint's credit key. */
    public QueuePairAddress address(int node) {
        return queuePairs[node].address();
    }

    /** The key of this endpoint's credit words, which receivers write. */
    public RemoteKey creditKey() {
        return credits.key();
    }

    /** Connects the queue pair for {@code node} to that node's receiving endpoint. */
    public void connect(int node, QueuePairAddress peer) {
        queuePairs[node].connect(peer);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public ShuffleBuffer acquire() {
        return buffers.buffer(waits.awaitOrFail(
                acquireStep, 0, bufferWaitNanos, "no send buffer came back", " (receivers stopped consuming?)"));
    }

    @Override
    public ShuffleBuffer tryAcquire() {
        int index = waits.attempt(acquireStep, 0);
        return index == WaitLoop.IDLE ? null : buffers.buffer(index);
    }

    @Override
    public boolean canPut(ShuffleBuffer buffer, int[] destinations, StreamState state) {
        failure.check();
        for (int node : destinations) {
            if (credits.available(node) < 1) {
                return false;
            }
        }
        return true;
    }

    private int tryAcquire(int unused) {
        ShuffleBuffer buffer = buffers.tryAcquire(drainer);
        return buffer == null ? WaitLoop.IDLE : buffer.index();
    }

    /** The states of this endpoint's buffers. */
    public BufferCounters bufferCounters() {
        return buffers.counters();
    }

    @Override
    public void putData(ShuffleBuffer buffer, int[] destinations, StreamState state) {
        failure.check();
        int length = MessageHeaderDescriptor.LENGTH + buffer.payloadLength();
        MessageHeaderDescriptor.write(
                buffer.segment(), 0, state, MessageHeaderDescriptor.KIND_DATA, id, buffer.payloadLength(), 0, 0);
        buffers.transmitting(buffer, destinations.length);
        WorkRequest request = requests.get();
        for (int node : destinations) {
            credits.claim(node, creditWaitNanos, "");
            request.clear()
                    .requestId(buffer.index())
                    .opcode(Opcode.SEND)
                    .local(buffer.region(), buffer.regionOffset(), length);
            queuePairs[node].postSend(request);
            if (state == StreamState.DEPLETED) {
                depleted[node] = true;
            }
        }
    }

    /** Between tries to claim {@code node}'s credit: checks its connection and polls completions. */
    private int whileWaitingForCredit(int node) {
        checkQueuePair(node);
        return drainCompletions() > 0 ? WaitLoop.PROGRESS : WaitLoop.IDLE;
    }

    private void checkQueuePair(int node) {
        if (queuePairs[node].state() == QueuePairState.ERROR) {
            throw failure.fail("the connection to node " + node + " failed (peer died or closed)");
        }
    }

    /** Polls send completions and returns buffers whose every destination has completed. */
    private int drainCompletions() {
        if (!pollLock.tryLock()) {
            return 0;
        }
        try {
            int count = completionQueue.poll(completions);
            for (int i = 0; i < count; i++) {
                WorkCompletion completion = completions[i];
                if (!completion.status().isSuccess()) {
                    throw failure.fail(
                            "a send failed: " + completion.status() + " on queue pair " + completion.queuePairNumber());
                }
                long requestId = completion.requestId();
                if (requestId == PADDING_REQUEST_ID) {
                    paddingCompleted.incrementAndGet();
                } else {
                    buffers.completed((int) requestId);
                }
            }
            return count;
        } finally {
            pollLock.unlock();
        }
    }

    @Override
    public void abandon() {
        failure.abandon();
    }

    /**
     * Send/receive parity: waits for each destination's FINAL credit, pads with empty messages up to it, waits for
     * every send to complete, then frees everything. A failed endpoint just frees.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!failure.failed()) {
                finishParity();
            }
        } finally {
            for (RcQueuePair queuePair : queuePairs) {
                queuePair.close();
            }
            completionQueue.close();
            buffers.close();
            credits.close();
            paddingRegion.close();
        }
    }

    /** Send/receive parity as in {@link #close}, then no credit, no DEPLETED sent: ready for the next stream. */
    @Override
    public boolean recycle() {
        if (closed || failure.failed()) {
            return false;
        }
        finishParity();
        credits.reset();
        Arrays.fill(depleted, false);
        return true;
    }

    private void finishParity() {
        for (int node = 0; node < nodes; node++) {
            // never a destination: its receiver expects nothing from us
            if (depleted[node] && waits.await(this::padToFinalCredit, node, null) == WaitLoop.STALLED) {
                throw failure.fail("node " + node + " sent no final credit for " + waits.stall());
            }
        }
        if (waits.await(this::drainUntilAllComplete, 0, null) == WaitLoop.STALLED) {
            throw failure.fail("sends did not complete for " + waits.stall());
        }
    }

    /** A step of close: pads {@code node} with one empty message, or ends once its FINAL credit is used up. */
    private int padToFinalCredit(int node) {
        if (credits.tryClaim(node)) {
            WorkRequest request = requests.get();
            request.clear()
                    .requestId(PADDING_REQUEST_ID)
                    .opcode(Opcode.SEND)
                    .local(paddingRegion, 0, MessageHeaderDescriptor.LENGTH);
            paddingPosted.incrementAndGet();
            queuePairs[node].postSend(request);
            return WaitLoop.PROGRESS;
        }
        if (credits.isFinalAndUsedUp(node)) {
            return WaitLoop.DONE;
        }
        checkQueuePair(node);
        drainCompletions();
        return WaitLoop.IDLE;
    }

    /** A step of close: ends once every buffer and padding message has completed. */
    private int drainUntilAllComplete(int unused) {
        if (buffers.allFree() && paddingCompleted.get() >= paddingPosted.get()) {
            return WaitLoop.DONE;
        }
        return drainCompletions() > 0 ? WaitLoop.PROGRESS : WaitLoop.IDLE;
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
        return "RcTwoSidedSendEndpoint[id=" + id + ", nodes=" + nodes + "]";
    }
}
