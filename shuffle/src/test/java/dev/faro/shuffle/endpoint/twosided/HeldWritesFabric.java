package dev.faro.shuffle.endpoint.twosided;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.ForwardingFabric;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.QueuePairType;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.UdQueuePair;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A fake NIC that is slow to carry out RDMA WRITEs, over a real fabric: while {@link #hold(boolean)} is on, a WRITE
 * posted on one of its RC queue pairs is queued (a copy, inline bytes included) instead of posted, and goes to the
 * real queue pair only when that queue pair's send completion queue is polled next. Closing the queue pair discards
 * what it still holds, as destroying a verbs queue pair discards its outstanding work requests (and as the
 * {@code net} provider drops the posts its progress thread has not taken yet). Everything else passes through.
 *
 * <p>Test code: allocates freely.
 */
final class HeldWritesFabric extends ForwardingFabric {

    private volatile boolean hold;
    private final List<HeldQueuePair> queuePairs = new CopyOnWriteArrayList<>();

    HeldWritesFabric(Fabric fabric) {
        super(fabric);
    }

    /** From now on, holds WRITEs back (true) or posts them at once (false). */
    void hold(boolean on) {
        hold = on;
    }

    /** WRITEs held back right now, over every queue pair. */
    int heldWrites() {
        int held = 0;
        for (HeldQueuePair queuePair : queuePairs) {
            held += queuePair.heldCount();
        }
        return held;
    }

    @Override
    public CompletionQueue createCompletionQueue(int capacity) {
        return new PumpingCompletionQueue(delegate().createCompletionQueue(capacity));
    }

    @Override
    public RcQueuePair createRcQueuePair(QueuePairConfig config) {
        PumpingCompletionQueue sendQueue = (PumpingCompletionQueue) config.sendCompletionQueue();
        HeldQueuePair queuePair = new HeldQueuePair(delegate().createRcQueuePair(unwrap(config)));
        sendQueue.queuePairs.add(queuePair);
        queuePairs.add(queuePair);
        return queuePair;
    }

    @Override
    public UdQueuePair createUdQueuePair(QueuePairConfig config) {
        return delegate().createUdQueuePair(unwrap(config));
    }

    private static QueuePairConfig unwrap(QueuePairConfig config) {
        return new QueuePairConfig(
                ((PumpingCompletionQueue) config.sendCompletionQueue()).queue,
                ((PumpingCompletionQueue) config.receiveCompletionQueue()).queue,
                config.sendQueueDepth(),
                config.receiveQueueDepth(),
                config.maxInlineBytes());
    }

    /** Leaves the real fabric open: its owner closes it. */
    @Override
    public void close() {}

    /** A completion queue that first lets its queue pairs post what they hold back. */
    private static final class PumpingCompletionQueue implements CompletionQueue {

        final CompletionQueue queue;
        final List<HeldQueuePair> queuePairs = new CopyOnWriteArrayList<>();

        PumpingCompletionQueue(CompletionQueue queue) {
            this.queue = queue;
        }

        private void pump() {
            for (HeldQueuePair queuePair : queuePairs) {
                queuePair.postHeld();
            }
        }

        @Override
        public int poll(WorkCompletion[] completions) {
            pump();
            return queue.poll(completions);
        }

        @Override
        public int poll(WorkCompletion[] completions, int max) {
            pump();
            return queue.poll(completions, max);
        }

        @Override
        public int await(WorkCompletion[] completions, long timeout, TimeUnit unit) {
            pump();
            return queue.await(completions, timeout, unit);
        }

        @Override
        public int capacity() {
            return queue.capacity();
        }

        @Override
        public void close() {
            queue.close();
        }
    }

    /** An RC queue pair whose WRITEs wait, while the fabric holds, until its send completion queue is polled. */
    private final class HeldQueuePair implements RcQueuePair {

        private final RcQueuePair queuePair;
        private final List<WorkRequest> held = new ArrayList<>();

        HeldQueuePair(RcQueuePair queuePair) {
            this.queuePair = queuePair;
        }

        synchronized int heldCount() {
            return held.size();
        }

        synchronized void postHeld() {
            if (queuePair.state() == QueuePairState.CLOSED) {
                return;
            }
            for (WorkRequest request : held) {
                queuePair.postSend(request);
            }
            held.clear();
        }

        @Override
        public synchronized void postSend(WorkRequest request) {
            if (!hold || request.opcode() != Opcode.WRITE) {
                queuePair.postSend(request);
                return;
            }
            WorkRequest copy = new WorkRequest().copyFrom(request);
            if (request.isInline()) {
                MemorySegment bytes =
                        Arena.ofAuto().allocate(request.inlineData().byteSize(), 8);
                bytes.copyFrom(request.inlineData());
                copy.inline(bytes);
            }
            held.add(copy);
        }

        @Override
        public synchronized void close() {
            held.clear(); // never carried out
            queuePair.close();
        }

        @Override
        public void connect(QueuePairAddress peer) {
            queuePair.connect(peer);
        }

        @Override
        public QueuePairAddress peer() {
            return queuePair.peer();
        }

        @Override
        public int queuePairNumber() {
            return queuePair.queuePairNumber();
        }

        @Override
        public QueuePairType type() {
            return queuePair.type();
        }

        @Override
        public QueuePairState state() {
            return queuePair.state();
        }

        @Override
        public QueuePairAddress address() {
            return queuePair.address();
        }

        @Override
        public void postReceive(long requestId, MemoryRegion region, long offset, int length) {
            queuePair.postReceive(requestId, region, offset, length);
        }

        @Override
        public int postedReceives() {
            return queuePair.postedReceives();
        }

        @Override
        public int sendQueueDepth() {
            return queuePair.sendQueueDepth();
        }

        @Override
        public int receiveQueueDepth() {
            return queuePair.receiveQueueDepth();
        }
    }
}
