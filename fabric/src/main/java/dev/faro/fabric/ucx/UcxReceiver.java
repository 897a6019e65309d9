package dev.faro.fabric.ucx;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.spi.PostedReceives;
import dev.faro.fabric.spi.QueuePairChecks;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;
import org.openucx.jucx.ucp.UcpAmData;

/**
 * The receive side of an RC queue pair: the ring of posted receives (filled by {@code postReceive} on any thread,
 * consumed by the progress thread) and the messages that wait for one.
 *
 * <h2>Receiver not ready</h2>
 * A SEND or WRITE_WITH_IMMEDIATE notification that finds no posted receive is <em>held</em> here (eager data kept by
 * UCX with {@code UCP_AM_FLAG_PERSISTENT_DATA}, rendezvous data left at the sender) and the initiator is told
 * ("receiver not ready", which it counts); the progress thread retries it whenever receives are posted, in arrival
 * order, and after the initiator's {@code receiverNotReadyTimeout} answers RECEIVER_NOT_READY_RETRY_EXCEEDED and
 * drops what else that queue pair sent (the initiator flushes it). So the retry happens at the target instead of by
 * resending, with the same outcome: delivery once a receive is posted, or the error after a bounded time. Messages
 * behind a held one wait behind it, so receives are still consumed in arrival order.
 *
 * <p>A rendezvous SEND is fetched into its receive buffer by UCX ({@code ucp_am_recv_data_nbx}); several fetches run
 * at once, and the messages behind them take their receives at once too, but every completion is published in arrival
 * order ({@link UcxPlacements}). Only when {@link #MAX_PLACEMENTS} wait do later messages wait (held, without telling
 * the initiator).
 *
 * <p>Threads: the ring is guarded by {@link #lock}; the held queue and the rest by the progress thread only. Data
 * path: allocation-free unless a message must be held (receiver not ready, or too many placements waiting).
 */
final class UcxReceiver {

    private final UcxRcQueuePair queuePair;
    private final PostedReceives<UcxMemoryRegion> receives;
    final ReentrantLock lock;
    private final int depth;
    /** The receive a message is being placed into. Progress thread only. */
    private final PostedReceives.Claimed<UcxMemoryRegion> claimed = new PostedReceives.Claimed<>();

    /**
     * Whether messages are held: only then does a posted receive need the progress thread. Written by the progress
     * thread, read by posting threads after they added a receive (Dekker with the progress thread's check before it
     * sleeps, {@link #deliverable}).
     */
    private volatile boolean holding;

    // Progress thread only.
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    /** Receives placed into whose completions wait for a rendezvous fetch (theirs or an earlier one). */
    private final UcxPlacements placements;
    /** The initiator's queue pair failed a held message: drop what it still sends. */
    private boolean discarding;

    /** The most receives whose completions wait at once (fetches in flight and what arrived behind them). */
    static final int MAX_PLACEMENTS = 16;

    UcxReceiver(UcxRcQueuePair queuePair, int depth) {
        this.queuePair = queuePair;
        this.depth = depth;
        this.receives = new PostedReceives<>(depth);
        this.lock = receives.lock;
        this.placements = new UcxPlacements(this, Math.min(depth, MAX_PLACEMENTS));
    }

    int count() {
        return receives.count();
    }

    boolean hasHeld() {
        return !held.isEmpty();
    }

    /**
     * Posts a receive; returns whether messages are held for it, so the caller rings the progress thread's doorbell
     * only then (a receive posted with nothing held waits for the next message, which wakes the thread anyway).
     */
    boolean post(long requestId, MemoryRegion region, long offset, int length) {
        lock.lock();
        try {
            QueuePairState current = queuePair.state();
            if (current == QueuePairState.CLOSED) {
                throw QueuePairChecks.queuePairClosed(queuePair.queuePairNumber());
            }
            UcxMemoryRegion ucxRegion = queuePair.checkLocal(region, offset, length, true);
            if (current == QueuePairState.ERROR) {
                queuePair.receiveCq.offer(
                        requestId,
                        CompletionStatus.FLUSHED,
                        Opcode.RECEIVE,
                        0,
                        0,
                        false,
                        null,
                        0,
                        queuePair.queuePairNumber(),
                        0,
                        0);
                return false;
            }
            if (receives.isFull()) {
                throw QueuePairChecks.receiveQueueFull(queuePair.queuePairNumber(), depth);
            }
            if (!ucxRegion.pin()) {
                throw QueuePairChecks.regionClosed(region);
            }
            receives.add(requestId, ucxRegion, offset, length);
        } finally {
            lock.unlock();
        }
        return holding; // volatile read after the volatile write of the count
    }

    /** Whether a held message could be delivered now (the progress thread, after it announced its sleep). */
    boolean deliverable() {
        return holding && !placements.isFull() && receives.count() > 0;
    }

    // ======================================================================================== progress thread

    /**
     * An incoming SEND or WRITE_WITH_IMMEDIATE notification for this queue pair, inside the AM handler. Returns
     * UCS_INPROGRESS when the data is kept for later, UCS_OK otherwise.
     */
    int onMessage(
            boolean send,
            long psn,
            long length,
            int immediate,
            long sourceNode,
            int sourceQpn,
            UcpAmData data,
            long nowNs) {
        if (discarding) {
            return UcxAgent.UCS_OK; // UCX drops the data
        }
        if (placements.isFull() || !held.isEmpty()) {
            hold(send, psn, length, immediate, sourceNode, sourceQpn, data, nowNs, false);
            return keep(data);
        }
        int outcome = deliver(send, psn, length, immediate, sourceNode, sourceQpn, data, false);
        if (outcome == NOT_READY) {
            hold(send, psn, length, immediate, sourceNode, sourceQpn, data, nowNs, true);
            return keep(data);
        }
        return UcxAgent.UCS_OK;
    }

    /**
     * What the AM handler returns for a held message: UCS_INPROGRESS keeps a SEND's data (eager data persists with
     * UCP_AM_FLAG_PERSISTENT_DATA, rendezvous data waits at the sender); a notification has none to keep, and keeping
     * its empty descriptor would leak it.
     */
    private static int keep(UcpAmData data) {
        return data != null ? UcxAgent.UCS_INPROGRESS : UcxAgent.UCS_OK;
    }

    private static final int DELIVERED = 0;
    private static final int NOT_READY = 1;

    /** Places a message into the oldest posted receive; NOT_READY if there is none (nothing changed). */
    private int deliver(
            boolean send,
            long psn,
            long length,
            int immediate,
            long sourceNode,
            int sourceQpn,
            UcpAmData data,
            boolean persisted) {
        long requestId;
        UcxMemoryRegion region;
        long offset;
        int capacity;
        lock.lock();
        try {
            if (!receives.take(claimed)) {
                return NOT_READY;
            }
            requestId = claimed.requestId;
            region = claimed.region;
            offset = claimed.offset;
            capacity = claimed.length;
            claimed.region = null;
        } finally {
            lock.unlock();
        }
        UcxAgent agent = queuePair.fabric.agent();
        Opcode opcode = send ? Opcode.RECEIVE : Opcode.RECEIVE_WRITE_WITH_IMMEDIATE;
        CompletionStatus status = CompletionStatus.SUCCESS;
        if (send && length > capacity) {
            // the receive is too small: it fails here (in order), the SEND fails at the sender, both queue pairs fail
            status = CompletionStatus.LOCAL_LENGTH_ERROR;
            if (persisted) {
                release(data);
            }
            agent.answer(queuePair, sourceNode, sourceQpn, psn, CompletionStatus.REMOTE_INVALID_REQUEST.ordinal(), 0);
        } else if (send && length > 0 && !data.isDataValid()) {
            // rendezvous: UCX fetches the bytes straight into the receive buffer
            placements.addFetch(
                    requestId,
                    region,
                    region.address() + offset,
                    (int) length,
                    queuePair.peer,
                    data,
                    psn,
                    sourceNode,
                    sourceQpn,
                    agent.requests());
            return DELIVERED;
        } else if (send && length > 0) {
            MemorySegment.copy(
                    MemorySegment.ofAddress(data.getDataAddress()).reinterpret(length),
                    0,
                    region.segment(),
                    offset,
                    length);
            if (persisted) {
                release(data);
            }
        }
        if (placements.isEmpty()) {
            placedInOrder(
                    requestId, region, status, opcode, (int) length, immediate, !send, psn, sourceNode, sourceQpn);
        } else {
            placements.addPlaced(
                    requestId, region, status, opcode, (int) length, immediate, !send, psn, sourceNode, sourceQpn);
        }
        return DELIVERED;
    }

    /**
     * A receive's bytes are in place (SUCCESS), or its fetch failed, or it was too small, and every receive placed
     * before it was completed: publishes its completion (acknowledged at the end of the turn), or fails the queue
     * pair.
     */
    void placedInOrder(
            long requestId,
            UcxMemoryRegion region,
            CompletionStatus status,
            Opcode opcode,
            int length,
            int immediate,
            boolean hasImmediate,
            long psn,
            long sourceNode,
            int sourceQpn) {
        region.unpin();
        if (status == CompletionStatus.SUCCESS) {
            complete(requestId, status, opcode, length, immediate, hasImmediate, sourceNode, sourceQpn);
            queuePair.placed(psn);
            return;
        }
        // the queue pair is in ERROR before the failed completion is published: a poller that sees it sees ERROR
        boolean failedNow = queuePair.markError();
        complete(requestId, status, Opcode.RECEIVE, 0, 0, false, 0, 0);
        if (failedNow) {
            flush();
        }
    }

    private void hold(
            boolean send,
            long psn,
            long length,
            int immediate,
            long sourceNode,
            int sourceQpn,
            UcpAmData data,
            long nowNs,
            boolean tellInitiator) {
        Held message =
                new Held(send, psn, length, immediate, sourceNode, sourceQpn, data, nowNs + queuePair.peerRnrTimeoutNs);
        held.addLast(message);
        holding = true;
        if (tellInitiator) {
            message.told = true;
            queuePair
                    .fabric
                    .agent()
                    .answer(queuePair, sourceNode, sourceQpn, psn, MessageDescriptor.STATUS_RECEIVER_NOT_READY, 0);
        }
    }

    /** Retries held messages: delivers what receives allow, fails the oldest after its deadline. Returns work. */
    int retryHeld(long nowNs) {
        int work = 0;
        while (!held.isEmpty() && !placements.isFull()) {
            Held message = held.peekFirst();
            if (queuePair.state() != QueuePairState.READY) {
                dropHeld();
                return work + 1;
            }
            int outcome = deliver(
                    message.send,
                    message.psn,
                    message.length,
                    message.immediate,
                    message.sourceNode,
                    message.sourceQpn,
                    message.data,
                    true);
            if (outcome == DELIVERED) {
                held.removeFirst();
                holding = !held.isEmpty();
                work++;
                continue;
            }
            if (!message.told) {
                message.told = true;
                message.deadlineNs = nowNs + queuePair.peerRnrTimeoutNs;
                answer(message, MessageDescriptor.STATUS_RECEIVER_NOT_READY);
                work++;
            }
            if (nowNs - message.deadlineNs >= 0) {
                answer(message, CompletionStatus.RECEIVER_NOT_READY_RETRY_EXCEEDED.ordinal());
                discarding = true;
                dropHeld();
                work++;
            }
            break;
        }
        return work;
    }

    private void dropHeld() {
        Held message;
        while ((message = held.pollFirst()) != null) {
            release(message.data);
        }
        holding = false;
    }

    private void release(UcpAmData data) {
        if (data == null) {
            return;
        }
        queuePair.fabric.agent().releaseData(data);
    }

    private void complete(
            long requestId,
            CompletionStatus status,
            Opcode opcode,
            int byteLength,
            int immediate,
            boolean hasImmediate,
            long sourceNode,
            int sourceQpn) {
        if (queuePair.state() != QueuePairState.CLOSED) {
            queuePair.receiveCq.offer(
                    requestId,
                    status,
                    opcode,
                    byteLength,
                    immediate,
                    hasImmediate,
                    null,
                    0,
                    queuePair.queuePairNumber(),
                    sourceNode,
                    sourceQpn);
        }
    }

    /** Completes every posted receive with FLUSHED and drops held messages. */
    void flush() {
        lock.lock();
        try {
            PostedReceives.Claimed<UcxMemoryRegion> flushed = new PostedReceives.Claimed<>();
            // take lowers the count before the completion: a poller that sees it sees the count
            while (receives.take(flushed)) {
                flushed.region.unpin();
                complete(flushed.requestId, CompletionStatus.FLUSHED, Opcode.RECEIVE, 0, 0, false, 0, 0);
            }
        } finally {
            lock.unlock();
        }
    }

    /** On close: drops posted receives without completions. */
    void dropAll() {
        lock.lock();
        try {
            PostedReceives.Claimed<UcxMemoryRegion> dropped = new PostedReceives.Claimed<>();
            while (receives.take(dropped)) {
                dropped.region.unpin();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Drops held messages once the queue pair is gone (progress thread). */
    void dropHeldAfterClose() {
        dropHeld();
    }

    /** Answers the initiator of held {@code message} with {@code status} (progress thread). */
    private void answer(Held message, int status) {
        queuePair.fabric.agent().answer(queuePair, message.sourceNode, message.sourceQpn, message.psn, status, 0);
    }

    /** A message waiting for a receive. */
    private static final class Held {
        final boolean send;
        final long psn;
        final long length;
        final int immediate;
        final long sourceNode;
        final int sourceQpn;
        final UcpAmData data;
        long deadlineNs;
        boolean told;

        Held(
                boolean send,
                long psn,
                long length,
                int immediate,
                long sourceNode,
                int sourceQpn,
                UcpAmData data,
                long deadlineNs) {
            this.send = send;
            this.psn = psn;
            this.length = length;
            this.immediate = immediate;
            this.sourceNode = sourceNode;
            this.sourceQpn = sourceQpn;
            this.data = data;
            this.deadlineNs = deadlineNs;
        }
    }
}
