package dev.faro.shuffle.endpoint.twosided;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.UdQueuePair;
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
import dev.faro.shuffle.operator.Partitioner;
import dev.faro.shuffle.protocol.CreditGate;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The SEND side of Send/Receive over UD (TODS19 §5.3; "SQ/SR"): ONE UD queue pair reaches every destination, with
 * messages of at most the MTU, the same absolute credit protocol as over RC, and message counting for the end of the
 * stream, since UD may reorder.
 *
 * <p>Every DATA message carries an id unique to this endpoint. To end the stream to a destination the endpoint sends
 * an END message with the number of DATA messages it sent there and the sum of {@code mix(id)} over them; the
 * receiver compares both. The count catches loss and duplication; the sum also catches a loss hidden by a
 * duplicate (the hole the paper leaves open), at the cost of one multiply-xor per message on each side.
 *
 * <p>Credit words arrive by RDMA WRITE, which UD cannot carry: like the Pythia prototype (which used a UC queue pair
 * per node; the fabric has no UC) the credit channel is a small RC queue pair per node that only the receivers post
 * on. Close waits for every destination's FINAL credit, written once it has taken the END in, so no credit write
 * can reach a closed queue pair.
 *
 * <p>Thread-safe (SESQ/SR shares it); data path allocation-free.
 */
public final class UdTwoSidedSendEndpoint implements SendEndpoint {

    /** Blocked time counted by this endpoint's waits (see {@link WaitLoop}). */
    private final AtomicLong bufferWaitNanos = new AtomicLong();
    /** Blocked time counted by this endpoint's waits (see {@link WaitLoop}). */
    private final AtomicLong creditWaitNanos = new AtomicLong();

    private static final long END_REQUEST_ID = -1;

    private final int id;
    private final int nodes;
    private final EndpointConfig config;
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final SendBuffers.Drainer drainer = this::drainCompletions;
    private final WaitLoop.Step acquireStep = this::tryAcquire;
    private final CompletionQueue completionQueue;
    private final UdQueuePair queuePair;
    private final RcQueuePair[] creditQueuePairs;
    private final QueuePairAddress[] destinations;
    private final SendBuffers buffers;
    private final CreditGate credits;
    private final MemoryRegion endRegion;
    private final AtomicLongArray dataMessages;
    private final AtomicLongArray idSums;
    private final AtomicIntegerArray endSent;
    private final AtomicLong nextMessageId = new AtomicLong();
    private final AtomicLong endsPosted = new AtomicLong();
    private final AtomicLong endsCompleted = new AtomicLong();
    private final ReentrantLock pollLock = new ReentrantLock();
    private final WorkCompletion[] completions = WorkCompletion.array(32);
    private final ThreadLocal<WorkRequest> requests = ThreadLocal.withInitial(WorkRequest::new);
    private volatile boolean closed;

    public UdTwoSidedSendEndpoint(Fabric fabric, BufferPool pool, int id, int nodes, EndpointConfig config) {
        if (!fabric.capabilities().supportsUd()) {
            throw new FaroException(
                    FaroException.Category.NOT_SUPPORTED,
                    "design " + config.design().paperName()
                            + " needs UD queue pairs, which the " + fabric.provider()
                            + " fabric does not offer; use an RC design (SEMQ/SR, MEMQ/SR, SEMQ/RD, MEMQ/RD, SEMQ/WR, MEMQ/WR)");
        }
        if (config.bufferBytes() > fabric.capabilities().udMtuBytes()) {
            throw new IllegalArgumentException("UD buffers must fit the MTU: bufferBytes=" + config.bufferBytes()
                    + ", mtu=" + fabric.capabilities().udMtuBytes());
        }
        this.id = id;
        this.nodes = nodes;
        this.config = config;
        this.failure = new EndpointFailure(
                "send endpoint " + id + " (" + config.design().paperName() + ")");
        this.waits = new WaitLoop(failure, config);
        int maximumBuffers = config.bufferPolicy().maximumPerPeer() * nodes;
        int sendDepth = maximumBuffers * nodes + nodes + 1; // a buffer may go to every node at once, plus ENDs
        this.completionQueue = fabric.createCompletionQueue(sendDepth + 1 + 2 * nodes);
        this.queuePair =
                fabric.createUdQueuePair(new QueuePairConfig(completionQueue, completionQueue, sendDepth, 1, 0));
        this.creditQueuePairs = new RcQueuePair[nodes];
        for (int node = 0; node < nodes; node++) {
            creditQueuePairs[node] =
                    fabric.createRcQueuePair(new QueuePairConfig(completionQueue, completionQueue, 1, 1, 0));
        }
        this.destinations = new QueuePairAddress[nodes];
        this.buffers = new SendBuffers(pool, config.bufferPolicy(), nodes);
        this.credits = new CreditGate(fabric, nodes, waits, this::whileWaitingForCredit);
        this.endRegion = fabric.register((long) nodes * 64, EnumSet.of(Access.LOCAL_WRITE));
        this.dataMessages = new AtomicLongArray(nodes);
        this.idSums = new AtomicLongArray(nodes);
        this.endSent = new AtomicIntegerArray(nodes);
    }

    /** The UD address receivers see as the source. */
    public QueuePairAddress address() {
        return queuePair.address();
    }

    /** The RC queue pair on which {@code node}'s receiver writes credit. */
    public QueuePairAddress creditAddress(int node) {
        return creditQueuePairs[node].address();
    }

    /** The key of this endpoint's credit words, which receivers write. */
    public RemoteKey creditKey() {
        return credits.key();
    }

    /** Wires destination {@code node}: its receiver's UD address and the credit queue pair it writes from. */
    public void connect(int node, QueuePairAddress receiver, QueuePairAddress receiverCreditQueuePair) {
        destinations[node] = receiver;
        creditQueuePairs[node].connect(receiverCreditQueuePair);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public ShuffleBuffer acquire() {
        return buffers.buffer(waits.awaitOrFail(acquireStep, 0, bufferWaitNanos, "no send buffer came back", ""));
    }

    @Override
    public ShuffleBuffer tryAcquire() {
        int index = waits.attempt(acquireStep, 0);
        return index == WaitLoop.IDLE ? null : buffers.buffer(index);
    }

    /** A DATA message takes one credit per target, and DEPLETED one more for the END message. */
    @Override
    public boolean canPut(ShuffleBuffer buffer, int[] targets, StreamState state) {
        failure.check();
        boolean data = buffer.payloadLength() != 0 || state != StreamState.DEPLETED;
        for (int node : targets) {
            int needed = (data ? 1 : 0) + (state == StreamState.DEPLETED && endSent.get(node) == 0 ? 1 : 0);
            if (credits.available(node) < needed) {
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
    public void putData(ShuffleBuffer buffer, int[] targets, StreamState state) {
        failure.check();
        if (buffer.payloadLength() == 0 && state == StreamState.DEPLETED) {
            buffers.transmitting(buffer, 0); // nothing to carry: only the END messages below
        } else {
            long messageId = nextMessageId.incrementAndGet();
            long signature = Partitioner.mix(messageId);
            MessageHeaderDescriptor.write(
                    buffer.segment(),
                    0,
                    StreamState.MORE_DATA,
                    MessageHeaderDescriptor.KIND_DATA,
                    id,
                    buffer.payloadLength(),
                    messageId,
                    0);
            buffers.transmitting(buffer, targets.length);
            WorkRequest request = requests.get();
            int length = MessageHeaderDescriptor.LENGTH + buffer.payloadLength();
            for (int node : targets) {
                claimCredit(node);
                dataMessages.incrementAndGet(node);
                idSums.addAndGet(node, signature);
                queuePair.postSend(request.clear()
                        .requestId(buffer.index())
                        .opcode(Opcode.SEND)
                        .local(buffer.region(), buffer.regionOffset(), length)
                        .destination(destinations[node]));
            }
        }
        if (state == StreamState.DEPLETED) {
            for (int node : targets) {
                sendEnd(node);
            }
        }
    }

    /** Sends the END message to {@code node}: the count and signature of the DATA messages it was sent. */
    private void sendEnd(int node) {
        if (!endSent.compareAndSet(node, 0, 1)) {
            return;
        }
        claimCredit(node);
        MemorySegment end = endRegion.segment();
        long offset = (long) node * 64;
        MessageHeaderDescriptor.write(
                end,
                offset,
                StreamState.DEPLETED,
                MessageHeaderDescriptor.KIND_END,
                id,
                0,
                idSums.get(node),
                dataMessages.get(node));
        endsPosted.incrementAndGet();
        queuePair.postSend(requests.get()
                .clear()
                .requestId(END_REQUEST_ID)
                .opcode(Opcode.SEND)
                .local(endRegion, offset, MessageHeaderDescriptor.LENGTH)
                .destination(destinations[node]));
    }

    private void claimCredit(int node) {
        credits.claim(node, creditWaitNanos, "; lost messages hold credit back");
    }

    /** Between tries to claim {@code node}'s credit: checks the credit connection and polls completions. */
    private int whileWaitingForCredit(int node) {
        if (creditQueuePairs[node].state() == QueuePairState.ERROR) {
            throw failure.fail("the credit connection to node " + node + " failed (peer died or closed)");
        }
        return drainCompletions() > 0 ? WaitLoop.PROGRESS : WaitLoop.IDLE;
    }

    private int drainCompletions() {
        if (!pollLock.tryLock()) {
            return 0;
        }
        try {
            int count = completionQueue.poll(completions);
            for (int i = 0; i < count; i++) {
                WorkCompletion completion = completions[i];
                if (!completion.status().isSuccess()) {
                    throw failure.fail("a send failed: " + completion.status());
                }
                long requestId = completion.requestId();
                if (requestId == END_REQUEST_ID) {
                    endsCompleted.incrementAndGet();
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

    /** Waits for every destination's FINAL credit (its receiver took our END in), then frees everything. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!failure.failed()) {
                awaitFinalCredits();
            }
        } finally {
            queuePair.close();
            for (RcQueuePair creditQueuePair : creditQueuePairs) {
                creditQueuePair.close();
            }
            completionQueue.close();
            buffers.close();
            credits.close();
            endRegion.close();
        }
    }

    /**
     * Every destination's FINAL credit as in {@link #close}, then no credit, no message counted, no END sent: ready for
     * the next stream. Message ids keep counting, so that a datagram of an earlier stream never matches a later one's.
     */
    @Override
    public boolean recycle() {
        if (closed || failure.failed()) {
            return false;
        }
        awaitFinalCredits();
        credits.reset();
        for (int node = 0; node < nodes; node++) {
            dataMessages.set(node, 0);
            idSums.set(node, 0);
            endSent.set(node, 0);
        }
        return true;
    }

    private void awaitFinalCredits() {
        for (int node = 0; node < nodes; node++) {
            if (endSent.get(node) != 0 && waits.await(this::awaitFinalCredit, node, null) == WaitLoop.STALLED) {
                throw failure.fail("node " + node + " did not confirm the end of the stream for " + waits.stall()
                        + " (messages lost?)");
            }
        }
        if (waits.await(this::drainUntilAllComplete, 0, null) == WaitLoop.STALLED) {
            throw failure.fail("sends did not complete for " + waits.stall());
        }
    }

    /** A step of close: ends once {@code node}'s FINAL credit arrived. */
    private int awaitFinalCredit(int node) {
        if (credits.isFinal(node)) {
            return WaitLoop.DONE;
        }
        if (creditQueuePairs[node].state() == QueuePairState.ERROR) {
            throw failure.fail("the credit connection to node " + node + " failed before it finished");
        }
        drainCompletions();
        return WaitLoop.IDLE;
    }

    /** A step of close: ends once every buffer and END message has completed. */
    private int drainUntilAllComplete(int unused) {
        if (buffers.allFree() && endsCompleted.get() >= endsPosted.get()) {
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
        return "UdTwoSidedSendEndpoint[id=" + id + ", nodes=" + nodes + "]";
    }
}
