package dev.faro.fabric.net;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.QueuePairType;
import dev.faro.fabric.WorkRequest;
import dev.faro.fabric.spi.AbstractQueuePair;
import dev.faro.fabric.spi.PostedReceives;
import dev.faro.fabric.spi.QueuePairChecks;
import dev.faro.fabric.spi.SendQueue;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * What RC and UD queue pairs share on the {@code net} fabric, beyond the validate-then-post skeleton of
 * {@link AbstractQueuePair}: the {@link SendQueue} of {@link SendSlot}s, the {@link PostedReceives}, and the error
 * state.
 *
 * <h2>Threads</h2>
 * Posting threads validate a request, copy it into the next slot and publish the post sequence ({@link #posted},
 * release); that is all {@code postSend} does. The progress thread takes requests in post order, moves their bytes and
 * publishes every send-queue completion, successes and errors alike, so completions appear in posting order. The
 * completion queue's poller retires slots ({@link SendQueue#retire}): an unsignaled request keeps its slot until a
 * later completion of the queue pair is polled, as in verbs.
 *
 * <p>Every transition to ERROR happens on the progress thread, which then completes what is outstanding; requests
 * posted in ERROR are queued like any other and completed FLUSHED by the progress thread, in order.
 *
 * <p>Data path: allocation-free after construction.
 */
abstract sealed class NetQueuePair extends AbstractQueuePair<NetMemoryRegion> permits NetRcQueuePair, NetUdQueuePair {

    final NetFabric fabric;
    final NetCompletionQueue sendCq;
    final NetCompletionQueue receiveCq;
    final PostedReceives<NetMemoryRegion> receives;
    private final SendQueue<NetMemoryRegion, SendSlot> sends;
    private final Arena inlineArena = Arena.ofAuto();

    /** The oldest request not yet completed. Progress thread only. */
    long nextToComplete = 1;

    /** Reusable holder for a receive taken off {@link #receives}. Progress thread only. */
    final PostedReceives.Claimed<NetMemoryRegion> claimed = new PostedReceives.Claimed<>();

    /** Reusable holder for receives flushed on ERROR. Progress thread only. */
    private final PostedReceives.Claimed<NetMemoryRegion> flushed = new PostedReceives.Claimed<>();

    /** An RC queue pair starts in INIT, a UD one READY. */
    NetQueuePair(NetFabric fabric, int qpn, QueuePairConfig config, QueuePairType type) {
        super(
                new NetQueuePairAddress(fabric.address(), fabric.node(), qpn, type),
                config,
                type == QueuePairType.RC ? QueuePairState.INIT : QueuePairState.READY,
                NetMemoryRegion.class,
                NetFabric.CAPABILITIES.maxMessageBytes());
        this.fabric = fabric;
        this.sendCq = fabric.localCompletionQueue(config.sendCompletionQueue());
        this.receiveCq = fabric.localCompletionQueue(config.receiveCompletionQueue());
        this.receives = new PostedReceives<>(config.receiveQueueDepth());
        int depth = config.sendQueueDepth();
        int inlineBytes = Math.max(8, config.maxInlineBytes());
        MemorySegment inline = inlineArena.allocate((long) depth * inlineBytes, 64);
        SendSlot[] slots = new SendSlot[depth];
        for (int i = 0; i < depth; i++) {
            slots[i] = new SendSlot(inline.asSlice((long) i * inlineBytes, inlineBytes));
        }
        this.sends = new SendQueue<>(slots);
    }

    final boolean isReady() {
        return state() == QueuePairState.READY;
    }

    /** INIT to READY (RC connect). Caller holds {@link #sendLock}. */
    final void markReady() {
        compareAndSetState(QueuePairState.INIT, QueuePairState.READY);
    }

    public final int postedReceives() {
        return receives.count();
    }

    /** The latest post sequence (acquire). Progress thread. */
    final long posted() {
        return sends.posted();
    }

    final SendSlot slot(long sequence) {
        return sends.slot(sequence);
    }

    @Override
    protected final boolean isOwn(NetMemoryRegion region) {
        return region.fabric == fabric;
    }

    /** Queues the request for the progress thread. Caller holds the send lock. */
    @Override
    protected final void enqueue(WorkRequest request, NetMemoryRegion local) {
        sends.post(request, local, qpn);
    }

    @Override
    protected final void afterPost() {
        fabric.doorbell();
    }

    public final void postReceive(long requestId, MemoryRegion region, long offset, int length) {
        receives.lock.lock();
        try {
            QueuePairState current = state();
            if (current == QueuePairState.CLOSED) {
                throw QueuePairChecks.queuePairClosed(qpn);
            }
            NetMemoryRegion netRegion = checkLocal(region, offset, length, true);
            if (current == QueuePairState.ERROR) {
                receiveCq.offer(requestId, CompletionStatus.FLUSHED, Opcode.RECEIVE, 0, 0, false, null, 0, qpn, 0, 0);
                return;
            }
            if (receives.isFull()) {
                throw QueuePairChecks.receiveQueueFull(qpn, config.receiveQueueDepth());
            }
            if (!netRegion.pin()) {
                throw QueuePairChecks.regionClosed(region);
            }
            receives.add(requestId, netRegion, offset, length);
        } finally {
            receives.lock.unlock();
        }
    }

    // --------------------------------------------------------------------------------------- progress thread only

    /**
     * Completes the oldest outstanding request with {@code status}: releases its buffer and publishes its completion
     * (always for errors, for success only when signaled). Progress thread.
     */
    final void completeNext(CompletionStatus status) {
        sends.complete(nextToComplete++, status, sendCq, qpn, state() != QueuePairState.CLOSED);
    }

    /** Completes every outstanding request, posted so far, with {@code status}. Progress thread. */
    final int completeAll(CompletionStatus status) {
        long last = sends.posted();
        int done = 0;
        while (nextToComplete <= last) {
            completeNext(status);
            done++;
        }
        return done;
    }

    /**
     * Moves to ERROR: outstanding requests complete with {@code outstandingStatus}, posted receives with FLUSHED;
     * requests posted later complete FLUSHED ({@link #flushIfInError}). Progress thread. Returns false if the queue
     * pair was already in ERROR or closed.
     */
    final boolean enterError(CompletionStatus outstandingStatus) {
        if (!markError()) {
            return false;
        }
        drainAfterError(outstandingStatus);
        return true;
    }

    /**
     * The first half of {@link #enterError}: the state becomes ERROR before any error completion is published, so a
     * poller that sees the completion sees the state. Returns false if already in ERROR or closed. Progress thread.
     */
    final boolean markError() {
        QueuePairState current = state();
        if (current == QueuePairState.ERROR
                || current == QueuePairState.CLOSED
                || !compareAndSetState(current, QueuePairState.ERROR)) {
            return false;
        }
        onEnterError();
        return true;
    }

    /** The second half of {@link #enterError}: completes what is outstanding and flushes the receives. */
    final void drainAfterError(CompletionStatus outstandingStatus) {
        completeAll(outstandingStatus);
        flushReceives();
    }

    /** Hook for subclasses to drop in-flight protocol state when the queue pair enters ERROR. */
    void onEnterError() {}

    /** Completes with FLUSHED what was posted in ERROR. Progress thread; returns the requests completed. */
    final int flushIfInError() {
        if (state() != QueuePairState.ERROR || nextToComplete > sends.posted()) {
            return 0;
        }
        return completeAll(CompletionStatus.FLUSHED);
    }

    /** Completes every posted receive with FLUSHED. */
    final void flushReceives() {
        receives.lock.lock();
        try {
            while (receives.take(flushed)) {
                NetMemoryRegion region = flushed.region;
                flushed.region = null;
                region.unpin();
                receiveCq.offer(
                        flushed.requestId, CompletionStatus.FLUSHED, Opcode.RECEIVE, 0, 0, false, null, 0, qpn, 0, 0);
            }
        } finally {
            receives.lock.unlock();
        }
    }

    /**
     * Takes the oldest posted receive into {@link #claimed} (its region stays pinned); false if none is posted.
     * Progress thread; lock-free, so it never waits for a thread that is posting a receive.
     */
    final boolean takeReceive() {
        return receives.take(claimed);
    }

    /** Publishes the completion of the receive in {@link #claimed} and releases its region. Progress thread. */
    final void completeReceive(
            CompletionStatus status,
            Opcode opcode,
            int byteLength,
            int immediate,
            boolean hasImmediate,
            long sourceNode,
            int sourceQpn) {
        NetMemoryRegion region = claimed.region;
        claimed.region = null;
        region.unpin();
        if (state() != QueuePairState.CLOSED) {
            receiveCq.offer(
                    claimed.requestId,
                    status,
                    opcode,
                    byteLength,
                    immediate,
                    hasImmediate,
                    null,
                    0,
                    qpn,
                    sourceNode,
                    sourceQpn);
        }
    }

    /**
     * After close: releases the buffers of requests that will never complete. Progress thread, or the closing
     * thread once the progress thread has stopped.
     */
    final void releaseOutstanding() {
        nextToComplete = sends.releaseFrom(nextToComplete);
    }

    /**
     * Closes the queue pair; requests still outstanding are dropped without completions, posted receives too.
     * Idempotent.
     */
    public void close() {
        sendLock.lock();
        try {
            QueuePairState current = state();
            if (current == QueuePairState.CLOSED) {
                return;
            }
            storeState(QueuePairState.CLOSED);
        } finally {
            sendLock.unlock();
        }
        PostedReceives.Claimed<NetMemoryRegion> dropped = new PostedReceives.Claimed<>();
        receives.lock.lock();
        try {
            while (receives.take(dropped)) {
                dropped.region.unpin();
                dropped.region = null;
            }
        } finally {
            receives.lock.unlock();
        }
        sendCq.detach(config.sendQueueDepth());
        receiveCq.detach(config.receiveQueueDepth());
        fabric.forget(this);
    }

    /** Whether the queue pair has posts the progress thread has not taken yet (approximate). */
    abstract boolean hasPendingPosts();
}
