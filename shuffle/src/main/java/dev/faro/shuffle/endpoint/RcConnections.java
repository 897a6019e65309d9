package dev.faro.shuffle.endpoint;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The RC plumbing of an MQ endpoint (TODS19 Table 1: one queue pair per node): the queue pairs, the completion
 * queue they share, a {@link SendQueueWindow} per queue pair, and the wait loops around them, which honour the
 * endpoint's {@link EndpointFailure} and stall timeout. The one-sided designs (RDMA READ and WRITE) build on it.
 *
 * <p>Request ids carry a kind, the peer node and an index ({@link #requestId}), so that a polled send completion
 * finds its window and the endpoint finds its buffer.
 *
 * <p>Thread-safe. The completion queue is drained by one thread at a time ({@link #drain} uses tryLock); the
 * {@link CompletionSink} runs under that lock, in completion order, and must not block or post. Data path:
 * allocation-free (the waits run in the endpoint's {@link WaitLoop}, without a progress signal: only the wait's own
 * progress counts).
 */
public final class RcConnections implements AutoCloseable {

    /** What an endpoint does with each successful completion it polled (send-queue accounting is done already). */
    public interface CompletionSink {
        void onCompletion(WorkCompletion completion);
    }

    /** Per-thread staging for posts: a reusable request and inline payloads (a ring slot, a credit word). */
    public static final class Scratch {
        public final WorkRequest request = new WorkRequest();
        /** 16 bytes, 8-aligned: a ring slot. */
        public final MemorySegment slot;
        /** 8 bytes, 8-aligned: a credit word. */
        public final MemorySegment word;

        public Scratch() {
            MemorySegment bytes = Arena.ofAuto().allocate(24, 8);
            this.slot = bytes.asSlice(0, 16);
            this.word = bytes.asSlice(16, 8);
        }
    }

    private final RcQueuePair[] queuePairs;
    private final SendQueueWindow[] windows;
    private final CompletionQueue completionQueue;
    private final EndpointFailure failure;
    private final Duration stallTimeout;
    private final CompletionSink sink;
    private final WaitLoop waits;
    private final WaitLoop.Step roomStep = this::makeRoom;
    private final ReentrantLock pollLock = new ReentrantLock();
    private final WorkCompletion[] completions = WorkCompletion.array(32);

    /**
     * Creates {@code nodes} RC queue pairs (in INIT) on one new completion queue sized for all of them.
     *
     * @param signalInterval at most this many posts in a row go unsignaled (see {@link SendQueueWindow})
     * @param sink the endpoint, which takes every completion polled (it may still be under construction: the sink is
     *     called only once the queue pairs are connected)
     */
    public RcConnections(
            Fabric fabric,
            int nodes,
            int sendDepth,
            int receiveDepth,
            int maxInlineBytes,
            int signalInterval,
            EndpointFailure failure,
            Duration stallTimeout,
            CompletionSink sink) {
        this.failure = failure;
        this.stallTimeout = stallTimeout;
        this.sink = sink;
        this.waits = new WaitLoop(failure, stallTimeout, ProgressSignal.NONE);
        this.completionQueue = fabric.createCompletionQueue(nodes * (sendDepth + receiveDepth));
        this.queuePairs = new RcQueuePair[nodes];
        this.windows = new SendQueueWindow[nodes];
        try {
            for (int node = 0; node < nodes; node++) {
                queuePairs[node] = fabric.createRcQueuePair(
                        new QueuePairConfig(completionQueue, completionQueue, sendDepth, receiveDepth, maxInlineBytes));
                windows[node] = new SendQueueWindow(queuePairs[node], Math.min(signalInterval, sendDepth));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** A request id: {@code kind} (8 bits), {@code peer} node (24 bits), {@code index} (32 bits). */
    public static long requestId(int kind, int peer, int index) {
        return (long) kind << 56 | (long) (peer & 0xFF_FFFF) << 32 | (index & 0xFFFF_FFFFL);
    }

    public static int kind(long requestId) {
        return (int) (requestId >>> 56);
    }

    public static int peer(long requestId) {
        return (int) (requestId >>> 32) & 0xFF_FFFF;
    }

    public static int index(long requestId) {
        return (int) requestId;
    }

    public int nodes() {
        return queuePairs.length;
    }

    public RcQueuePair queuePair(int node) {
        return queuePairs[node];
    }

    public QueuePairAddress address(int node) {
        return queuePairs[node].address();
    }

    public void connect(int node, QueuePairAddress peer) {
        queuePairs[node].connect(peer);
    }

    /** Whether the connection to {@code node} has failed (its peer died or closed, or a request failed). */
    public boolean isBroken(int node) {
        return queuePairs[node].state() == QueuePairState.ERROR;
    }

    /** Records and throws a NETWORK failure naming {@code node}. */
    public RuntimeException failConnection(int node) {
        throw failure.fail("the connection to node " + node + " failed (peer died or closed early)");
    }

    /**
     * Polls completions unless another thread is polling: checks each one's status (an error fails the endpoint),
     * accounts send completions in their window, and hands each to the sink. Returns how many were polled.
     */
    public int drain() {
        if (!pollLock.tryLock()) {
            return 0;
        }
        try {
            int count = completionQueue.poll(completions);
            for (int i = 0; i < count; i++) {
                WorkCompletion completion = completions[i];
                if (!completion.status().isSuccess()) {
                    throw failure.fail("a request failed: " + completion.status() + " (" + completion.opcode()
                            + " on queue pair " + completion.queuePairNumber() + ")");
                }
                Opcode opcode = completion.opcode();
                if (opcode != Opcode.RECEIVE && opcode != Opcode.RECEIVE_WRITE_WITH_IMMEDIATE) {
                    windows[peer(completion.requestId())].onCompletion();
                }
                sink.onCompletion(completion);
            }
            return count;
        } finally {
            pollLock.unlock();
        }
    }

    /**
     * Posts {@code request} on the queue pair for {@code node}; while its send queue is full, drains completions
     * (into the sink) and waits, failing if the connection breaks or the stall timeout passes.
     */
    public void post(int node, WorkRequest request, boolean signal) {
        while (!windows[node].tryPost(request, signal)) {
            if (waits.await(roomStep, node, null) == WaitLoop.STALLED) {
                throw failure.fail("the send queue to node " + node + " stayed full for " + stallTimeout);
            }
        }
    }

    /**
     * A step of {@link #post}: ends once the send queue has room, or a drain polled completions (which may have freed
     * some). Room is checked first because another thread may have drained the completions that freed it (the drain
     * here then finds the poll lock taken or the queue empty).
     */
    private int makeRoom(int node) {
        if (isBroken(node)) {
            throw failConnection(node);
        }
        if (windows[node].unsynchronizedHasRoom()) {
            return WaitLoop.DONE;
        }
        return drain() > 0 ? WaitLoop.DONE : WaitLoop.IDLE;
    }

    /** Whether every request posted on every queue pair has completed and been polled. */
    public boolean isIdle() {
        for (SendQueueWindow window : windows) {
            if (!window.isIdle()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Waits until {@link #isIdle()}, draining into the sink. The last request to every peer must have been signaled
     * (see {@link SendQueueWindow#isIdle()}).
     */
    public void awaitIdle() {
        if (waits.await(this::drainUntilIdle, 0, null) == WaitLoop.STALLED) {
            throw failure.fail("requests did not complete within " + stallTimeout);
        }
    }

    /** A step of {@link #awaitIdle}. */
    private int drainUntilIdle(int unused) {
        if (isIdle()) {
            return WaitLoop.DONE;
        }
        return drain() > 0 ? WaitLoop.PROGRESS : WaitLoop.IDLE;
    }

    /** Closes the queue pairs, then the completion queue. Idempotent. */
    @Override
    public void close() {
        for (RcQueuePair queuePair : queuePairs) {
            if (queuePair != null) {
                queuePair.close();
            }
        }
        completionQueue.close();
    }
}
