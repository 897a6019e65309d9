package dev.faro.fabric.ucx;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.WorkRequest;
import dev.faro.fabric.spi.AbstractQueuePair;
import dev.faro.fabric.spi.QueuePairChecks;
import dev.faro.fabric.spi.SendQueue;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * An RC queue pair of the {@code ucx} fabric. Posting threads validate a request, copy it into the next
 * {@link SendSlot} and publish the post sequence; the node's progress thread ({@link UcxAgent}) issues the requests
 * to UCX in posting order ({@link #transmit}), and publishes every send-queue completion in posting order
 * ({@link #completeReady}). As a target, the progress thread matches incoming SENDs and WRITE_WITH_IMMEDIATE
 * notifications with posted receives ({@link UcxReceiver}).
 *
 * <pre>
 *  initiator (progress thread):  nextToComplete &lt;= nextToIssue &lt;= posted + 1
 *    [nextToComplete, nextToIssue)  issued to UCX, waiting for callbacks, a flush or the target's answer
 *    [nextToIssue, posted]          waiting: for the connect handshake, or behind a message that waits for a flush
 *  connect: CONNECT to the peer's node; its progress thread answers once its queue pair is connected back to this
 *    one (CONNECT_REPLY ok), or refuses (another peer, closed, or not connected within the peer timeout): then the
 *    first request fails with REMOTE_OPERATION_ERROR and the queue pair enters ERROR.
 * </pre>
 *
 * <p>Data path: allocation-free in this class after {@link #connect}; JUCX itself allocates a small request object
 * per get and message (its API returns one). A WRITE's puts are implicit: no request and no callback per put; the
 * endpoint flush that closes their epoch completes them, one request per flush for every WRITE of that epoch.
 */
final class UcxRcQueuePair extends AbstractQueuePair<UcxMemoryRegion> implements RcQueuePair {

    /** Requests one queue pair issues per progress turn, so queue pairs share the thread fairly. */
    private static final int ISSUE_BUDGET = 32;

    final UcxFabric fabric;
    final UcxCompletionQueue sendCq;
    final UcxCompletionQueue receiveCq;
    private final SendQueue<UcxMemoryRegion, SendSlot> sends;
    /** Inline and header buffers: freed by the GC once neither this queue pair nor a UCX callback (a slot's) holds them. */
    private final Arena arena = Arena.ofAuto();

    final UcxReceiver receiver;

    /** Written by connect before READY (volatile write of the state), read after reading the state. */
    private UcxQueuePairAddress peerAddress;

    long peerNode;
    int peerQpn;

    // Progress thread only.
    UcxPeer peer;
    /** 0 waiting for the handshake, 1 connected back, -1 refused. */
    int handshake;

    long nextToIssue = 1;
    long nextToComplete = 1;
    /** The post sequence {@link #transmit} last saw. */
    private long seenPosted;
    /** A request was refused before it left: nothing after it is issued (the queue pair is about to fail). */
    private boolean refused;
    /** The initiator's receiver-not-ready timeout, learned from its CONNECT (target side). */
    long peerRnrTimeoutNs;
    /** The highest psn the target acknowledged cumulatively ({@link MessageDescriptor#ACK}; initiator side). */
    private long acknowledgedPsn;
    /** The highest psn placed into a receive and not yet acknowledged; 0: none (target side). */
    private long placedPsn;

    UcxRcQueuePair(UcxFabric fabric, int qpn, QueuePairConfig config) {
        super(
                new UcxQueuePairAddress(fabric.node(), qpn, UcxHost.ID, fabric.workerAddress()),
                config,
                QueuePairState.INIT,
                UcxMemoryRegion.class,
                UcxFabric.CAPABILITIES.maxMessageBytes());
        this.fabric = fabric;
        this.sendCq = fabric.localCompletionQueue(config.sendCompletionQueue());
        this.receiveCq = fabric.localCompletionQueue(config.receiveCompletionQueue());
        int depth = config.sendQueueDepth();
        int inlineBytes = Math.max(8, config.maxInlineBytes());
        MemorySegment inline = arena.allocate((long) depth * inlineBytes, 64);
        MemorySegment headers = arena.allocate((long) depth * MessageDescriptor.LENGTH, 64);
        SendSlot[] slots = new SendSlot[depth];
        for (int i = 0; i < depth; i++) {
            slots[i] = new SendSlot(
                    inline.asSlice((long) i * inlineBytes, inlineBytes),
                    headers.asSlice((long) i * MessageDescriptor.LENGTH, MessageDescriptor.LENGTH));
        }
        this.sends = new SendQueue<>(slots);
        this.receiver = new UcxReceiver(this, config.receiveQueueDepth());
        this.peerRnrTimeoutNs = fabric.config().receiverNotReadyTimeout().toNanos();
    }

    @Override
    public QueuePairAddress peer() {
        return state() == QueuePairState.INIT ? null : peerAddress;
    }

    @Override
    public int postedReceives() {
        return receiver.count();
    }

    /** Whether this queue pair is connected to the given peer queue pair (any thread; racy reads are fine). */
    boolean isConnectedTo(long node, int remoteQpn) {
        QueuePairState current = state();
        return (current == QueuePairState.READY || current == QueuePairState.ERROR)
                && peerNode == node
                && peerQpn == remoteQpn;
    }

    @Override
    public void connect(QueuePairAddress remote) {
        if (!(remote instanceof UcxQueuePairAddress ucxAddress)) {
            throw QueuePairChecks.notAnRcAddress(UcxFabricProvider.NAME, remote);
        }
        sendLock.lock();
        try {
            QueuePairChecks.checkConnectable(qpn, state());
            peerAddress = ucxAddress;
            peerNode = ucxAddress.node();
            peerQpn = ucxAddress.queuePairNumber();
            compareAndSetState(QueuePairState.INIT, QueuePairState.READY);
        } finally {
            sendLock.unlock();
        }
        fabric.onConnected(this, ucxAddress);
    }

    // ================================================================================================ posting

    @Override
    protected boolean isOwn(UcxMemoryRegion region) {
        return region.fabric == fabric;
    }

    @Override
    protected void validateForType(WorkRequest request) {
        QueuePairChecks.checkRcRequest(request, qpn, state(), UcxRemoteKey.class, UcxFabricProvider.NAME);
    }

    /** Queues the request for the progress thread. Caller holds the send lock. */
    @Override
    protected void enqueue(WorkRequest request, UcxMemoryRegion local) {
        sends.post(request, local, qpn);
    }

    @Override
    protected void afterPost() {
        fabric.doorbell();
    }

    @Override
    public void postReceive(long requestId, MemoryRegion region, long offset, int length) {
        if (receiver.post(requestId, region, offset, length)) {
            fabric.doorbell();
        }
    }

    SendSlot slot(long sequence) {
        return sends.slot(sequence);
    }

    long posted() {
        return sends.posted();
    }

    // ================================================================================= progress thread: initiator

    /** The connect handshake's answer arrived. */
    void onConnectReply(boolean accepted) {
        if (handshake == 0) {
            handshake = accepted ? 1 : -1;
        }
    }

    /** Whether the progress thread has something to do for this queue pair as initiator (approximate). */
    boolean hasWork() {
        return nextToComplete <= sends.posted();
    }

    /** Whether requests were posted since the last {@link #transmit} (the progress thread, before it sleeps). */
    boolean hasNewPosts() {
        return sends.posted() != seenPosted;
    }

    /** Issues waiting requests to UCX in posting order. Returns the requests issued. */
    int transmit(long nowNs) {
        seenPosted = sends.posted();
        QueuePairState current = state();
        if (current != QueuePairState.READY || peer == null) {
            return 0;
        }
        if (peer.failed) {
            fail(CompletionStatus.RETRY_EXCEEDED, CompletionStatus.RETRY_EXCEEDED);
            return 1;
        }
        if (handshake == 0 || refused) {
            return 0;
        }
        long last = seenPosted;
        if (handshake < 0) {
            if (nextToIssue <= last) {
                SendSlot slot = slot(nextToIssue++);
                slot.status = CompletionStatus.REMOTE_OPERATION_ERROR;
                return 1;
            }
            return 0;
        }
        int issued = 0;
        while (nextToIssue <= last && issued < ISSUE_BUDGET) {
            SendSlot slot = slot(nextToIssue);
            if (!issue(slot)) {
                break;
            }
            nextToIssue++;
            issued++;
            if (slot.status != null) {
                refused = true; // refused before it left: nothing after it may run
                break;
            }
        }
        return issued;
    }

    /** Hands one request to UCX; false if it must wait (for a flush). */
    private boolean issue(SendSlot slot) {
        switch (slot.opcode) {
            case WRITE -> {
                if (refuseRemote(slot, Access.REMOTE_WRITE)) {
                    return true;
                }
                put(slot);
                return true;
            }
            case READ -> {
                if (refuseRemote(slot, Access.REMOTE_READ)) {
                    return true;
                }
                if (slot.length > 0) {
                    slot.pendingCallbacks++;
                    fabric.agent()
                            .requests()
                            .get(
                                    peer,
                                    slot.localAddress(),
                                    slot.length,
                                    slot.remoteKey.address + slot.remoteOffset,
                                    unpacked(slot.remoteKey),
                                    slot.remoteKey.unpackedHandle,
                                    slot.localMemoryHandle(),
                                    slot.callback,
                                    slot.sequence);
                }
                return true;
            }
            case WRITE_WITH_IMMEDIATE -> {
                if (slot.phase == 0) {
                    if (refuseRemote(slot, Access.REMOTE_WRITE)) {
                        return true;
                    }
                    put(slot);
                    slot.phase = 1;
                    peer.requestFlush();
                }
                if (!peer.allFlushed()) {
                    return false;
                }
                sendMessage(slot, MessageDescriptor.WRITE_IMMEDIATE, false);
                return true;
            }
            case SEND, FETCH_ADD, COMPARE_SWAP -> {
                if (!peer.allFlushed()) {
                    peer.requestFlush();
                    return false;
                }
                if (slot.opcode.isAtomic() && slot.remoteKey.node != peerNode) {
                    slot.status = CompletionStatus.REMOTE_ACCESS_ERROR;
                    return true;
                }
                sendMessage(
                        slot,
                        slot.opcode == Opcode.SEND ? MessageDescriptor.SEND : MessageDescriptor.ATOMIC,
                        slot.opcode == Opcode.SEND);
                return true;
            }
            default -> throw new IllegalStateException("opcode=" + slot.opcode);
        }
    }

    /**
     * Checks a one-sided request against what the key says (owner, rights, bounds) and the owner's revocations;
     * sets REMOTE_ACCESS_ERROR and returns true if it must not run. UCX's rkeys cannot refuse anything themselves.
     */
    private boolean refuseRemote(SendSlot slot, Access right) {
        UcxRemoteKey key = slot.remoteKey;
        if (key.node != peerNode
                || (key.rightsBits & right.bit()) == 0
                || !key.contains(slot.remoteOffset, slot.length)
                || peer.revoked.get(key.regionId)) {
            slot.status = CompletionStatus.REMOTE_ACCESS_ERROR;
            return true;
        }
        return false;
    }

    /** Puts a WRITE's bytes, the last 8-byte word as a put of its own after the rest (visible last). */
    private void put(SendSlot slot) {
        int length = slot.length;
        if (length == 0) {
            return;
        }
        long remote = slot.remoteKey.address + slot.remoteOffset;
        long source = slot.localAddress();
        var rkey = unpacked(slot.remoteKey);
        // implicit puts: no UCX request, no callback; the epoch's flush completes them (and reports their failure)
        if (length >= 16) {
            peer.endpoint.putNonBlockingImplicit(source, length - 8, remote, rkey);
            peer.endpoint.putNonBlockingImplicit(source + length - 8, 8, remote + length - 8, rkey);
        } else {
            peer.endpoint.putNonBlockingImplicit(source, length, remote, rkey);
        }
        slot.epoch = peer.putIssued();
    }

    private org.openucx.jucx.ucp.UcpRemoteKey unpacked(UcxRemoteKey key) {
        if (key.unpacked == null || key.unpackedFor != peer) {
            key.unpacked = peer.endpoint.unpackRemoteKey(java.nio.ByteBuffer.allocateDirect(key.packedKey.length)
                    .put(key.packedKey)
                    .flip());
            key.unpackedHandle = key.unpacked.getNativeId();
            key.unpackedFor = peer;
            fabric.agent().rememberRemoteKey(key.unpacked);
        }
        return key.unpacked;
    }

    private void sendMessage(SendSlot slot, int type, boolean withPayload) {
        long a = slot.opcode.isAtomic() ? slot.remoteOffset : slot.length;
        long d = slot.opcode.isAtomic()
                ? ((long) slot.remoteKey.regionId << 32) | (slot.remoteKey.key & 0xFFFFFFFFL)
                : 0;
        int immediate = slot.opcode.isAtomic() ? slot.opcode.ordinal() : slot.immediate;
        MessageDescriptor.write(
                slot.header,
                type,
                peerQpn,
                fabric.node(),
                qpn,
                immediate,
                slot.sequence,
                a,
                slot.compareOrAdd,
                slot.swap,
                d);
        slot.pendingCallbacks++;
        slot.phase = 2;
        peer.lastSentNs = System.nanoTime();
        boolean data = withPayload && slot.length > 0;
        fabric.agent()
                .requests()
                .sendActiveMessage(
                        peer,
                        MessageDescriptor.AM_ID,
                        slot.header.address(),
                        MessageDescriptor.LENGTH,
                        data ? slot.localAddress() : 0,
                        data ? slot.length : 0,
                        data ? slot.localMemoryHandle() : 0,
                        slot.callback,
                        slot.sequence);
    }

    /** The target answered request {@code psn}. */
    void onAnswer(long psn, int status, long value) {
        // psn == nextToIssue: the answer came back inside the send that is issuing it (UCX's self transport
        // delivers synchronously), before nextToIssue moved on
        if (psn < nextToComplete || psn > nextToIssue) {
            return; // flushed meanwhile
        }
        SendSlot slot = slot(psn);
        if (status == MessageDescriptor.STATUS_RECEIVER_NOT_READY) {
            fabric.counters.receiverNotReady.increment();
            return;
        }
        slot.answered = true;
        slot.oldValue = value;
        if (status != CompletionStatus.SUCCESS.ordinal()) {
            slot.status = CompletionStatus.fromOrdinal(status);
        }
    }

    /** The target acknowledged every SEND and notification up to {@code psn} (cumulative: a stale one is harmless). */
    void onAcknowledged(long psn) {
        if (psn - acknowledgedPsn > 0) {
            acknowledgedPsn = psn;
        }
    }

    // ==================================================================================== progress thread: target

    /** A SEND or notification with {@code psn} was placed into a receive: acknowledged at the end of the turn. */
    void placed(long psn) {
        placedPsn = psn;
    }

    /**
     * Sends the cumulative acknowledgement of what was placed since the last one, if anything (end of a progress turn,
     * before an answer one by one, and when the queue pair is forgotten), so the initiator learns of placements in
     * order.
     */
    void acknowledgePlaced() {
        if (placedPsn == 0) {
            return;
        }
        long psn = placedPsn;
        placedPsn = 0;
        fabric.agent().acknowledge(this, psn);
    }

    // ================================================================================= progress thread: initiator

    /** Publishes the completions of requests that are done, in posting order. Returns how many. */
    int completeReady() {
        int done = 0;
        while (nextToComplete < nextToIssue) {
            SendSlot slot = slot(nextToComplete);
            if (slot.status != null && slot.status != CompletionStatus.SUCCESS) {
                fail(slot.status, CompletionStatus.FLUSHED);
                return done + 1;
            }
            if (!settled(slot)) {
                if (slot.transportFailed && slot.pendingCallbacks <= 0) {
                    fail(CompletionStatus.RETRY_EXCEEDED, CompletionStatus.FLUSHED);
                    return done + 1;
                }
                break;
            }
            if (slot.transportFailed || (slot.epoch != 0 && slot.epoch <= peer.failedEpoch)) {
                fail(CompletionStatus.RETRY_EXCEEDED, CompletionStatus.FLUSHED);
                return done + 1;
            }
            if (slot.opcode.isAtomic()) {
                slot.local
                        .segment()
                        .set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, slot.localOffset, slot.oldValue);
            }
            completeNext(CompletionStatus.SUCCESS);
            done++;
        }
        if (state() == QueuePairState.ERROR && nextToComplete <= sends.posted()) {
            done += flushPosted();
        }
        return done;
    }

    private boolean settled(SendSlot slot) {
        return switch (slot.opcode) {
            case WRITE -> slot.pendingCallbacks <= 0 && (slot.epoch == 0 || peer.flushedEpoch >= slot.epoch);
            case READ -> slot.pendingCallbacks <= 0;
            // acknowledged: placed at the target, which fetched its data already, even if UCX has not yet reported
            // the send's local completion (a report after the slot's reuse is ignored: SendSlot#callback)
            case SEND, WRITE_WITH_IMMEDIATE ->
                (slot.phase == 2 && slot.sequence <= acknowledgedPsn) || (slot.answered && slot.pendingCallbacks <= 0);
            default -> slot.answered && slot.pendingCallbacks <= 0;
        };
    }

    private void completeNext(CompletionStatus status) {
        sends.complete(nextToComplete++, status, sendCq, qpn, state() != QueuePairState.CLOSED);
    }

    /**
     * The oldest outstanding request fails with {@code first}; the queue pair enters ERROR first, then everything
     * else outstanding completes with {@code rest} and the posted receives with FLUSHED.
     */
    void fail(CompletionStatus first, CompletionStatus rest) {
        if (!markError()) {
            return;
        }
        if (nextToComplete <= sends.posted()) {
            completeNext(first);
        }
        flushPosted(rest);
        receiver.flush();
    }

    private int flushPosted() {
        return flushPosted(CompletionStatus.FLUSHED);
    }

    private int flushPosted(CompletionStatus status) {
        long last = sends.posted();
        int done = 0;
        while (nextToComplete <= last) {
            completeNext(status);
            done++;
        }
        if (nextToIssue < nextToComplete) {
            nextToIssue = nextToComplete;
        }
        return done;
    }

    /** Moves to ERROR (any thread may read it); false if already in ERROR or closed. */
    boolean markError() {
        QueuePairState current = state();
        return current != QueuePairState.ERROR
                && current != QueuePairState.CLOSED
                && compareAndSetState(current, QueuePairState.ERROR);
    }

    /**
     * The peer node failed or closed: what it acknowledged before (or what a flush placed) completes first, since its
     * ACK and its GOODBYE can arrive in one {@code ucp_worker_progress}; everything else outstanding and the posted
     * receives complete with errors.
     */
    void onPeerFailed() {
        completeReady();
        fail(CompletionStatus.RETRY_EXCEEDED, CompletionStatus.RETRY_EXCEEDED);
    }

    /** After close: releases the pins of requests that will never complete. */
    void releaseOutstanding() {
        nextToComplete = sends.releaseFrom(nextToComplete);
    }

    @Override
    public void close() {
        sendLock.lock();
        try {
            if (state() == QueuePairState.CLOSED) {
                return;
            }
            storeState(QueuePairState.CLOSED);
        } finally {
            sendLock.unlock();
        }
        receiver.dropAll();
        sendCq.detach(config.sendQueueDepth());
        receiveCq.detach(config.receiveQueueDepth());
        fabric.forget(this);
    }

    @Override
    public String toString() {
        return "UcxRcQueuePair[qpn=" + qpn + ", state=" + state() + ", peer=" + peerAddress + "]";
    }
}
