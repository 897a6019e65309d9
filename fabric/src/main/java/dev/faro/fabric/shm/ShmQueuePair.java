package dev.faro.fabric.shm;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.QueuePairType;
import dev.faro.fabric.WorkRequest;
import dev.faro.fabric.spi.AbstractQueuePair;
import dev.faro.fabric.spi.QueuePairChecks;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What RC and UD queue pairs share on the {@code shm} fabric, beyond the validate-then-post skeleton of
 * {@link AbstractQueuePair}: send-queue accounting, the receive ring, the error state, and the queue of requests that
 * must wait (a SEND whose target has no receive posted yet).
 *
 * <p>Requests run on the posting thread, inside {@code postSend}, under {@link #sendLock}: the initiator moves the
 * data and publishes the completions, so the target's threads do nothing. A request that cannot run yet is copied into
 * the deferred queue, and every later request queues behind it to keep RC order; the posting threads and the
 * fabric's progress agent retry the queue.
 *
 * <p>Data path: allocation-free after construction, except when a request is deferred (a copy of its inline bytes).
 */
abstract sealed class ShmQueuePair extends AbstractQueuePair<ShmMemoryRegion> permits ShmRcQueuePair, ShmUdQueuePair {

    /** {@link #execute} results. */
    static final int DONE = 0;

    static final int RETRY_LATER = 1;

    /**
     * The contention model holds the request until its switch port lets it through ({@link PortContention}): retried
     * like {@link #RETRY_LATER}, but its wait does not count against the receiver-not-ready timeout.
     */
    static final int WAIT_FOR_PORT = 2;

    final ShmFabric fabric;
    final ShmCompletionQueue sendCq;
    final ShmCompletionQueue receiveCq;
    final MemorySegment file;
    private final Path path;
    private final Arena arena = Arena.ofShared();
    private final ReentrantLock receiveLock = new ReentrantLock();

    /** Requests posted so far; the post sequence of the latest. Guarded by {@link #sendLock}. */
    private long posted;

    /** Post sequence up to which send-queue slots are free again; written by the polling thread of the send CQ. */
    private volatile long retired;

    // The deferred queue, a ring of copies; guarded by sendLock.
    private final WorkRequest[] deferred;
    private final long[] deferredSequence;
    private final long[] deferredDeadlineNs;
    private final long[] deferredPostedNs;

    /**
     * When the request being executed (or deferred) was posted (read from the clock only with the contention model
     * on or behind deferred requests, 0 otherwise); guarded by {@link #sendLock}.
     */
    long postedNs;

    private int deferredHead;
    private int deferredCount;

    /** Whether the progress agent should look at this queue pair (approximate; read without the lock). */
    volatile boolean hasDeferredWork;

    ShmQueuePair(
            ShmFabric fabric,
            Path directory,
            int qpn,
            QueuePairType type,
            QueuePairConfig config,
            QueuePairState initialState) {
        super(
                new ShmQueuePairAddress(fabric.node(), qpn, type),
                config,
                initialState,
                ShmMemoryRegion.class,
                ShmFabric.CAPABILITIES.maxMessageBytes());
        this.fabric = fabric;
        this.sendCq = fabric.localCompletionQueue(config.sendCompletionQueue());
        this.receiveCq = fabric.localCompletionQueue(config.receiveCompletionQueue());
        int ringCapacity = Integer.highestOneBit(Math.max(1, config.receiveQueueDepth() - 1)) << 1;
        this.path = directory.resolve(QueuePairDescriptor.fileName(qpn));
        this.file = SharedMemory.create(path, QueuePairDescriptor.fileLength(ringCapacity), arena);
        QueuePairDescriptor.initialize(
                file, type, receiveCq.id(), config.receiveQueueDepth(), ringCapacity, initialState);
        int depth = config.sendQueueDepth();
        this.deferred = new WorkRequest[depth];
        for (int i = 0; i < depth; i++) {
            deferred[i] = new WorkRequest();
        }
        this.deferredSequence = new long[depth];
        this.deferredDeadlineNs = new long[depth];
        this.deferredPostedNs = new long[depth];
    }

    /**
     * Runs one request now. Returns {@link #DONE} (completions published), {@link #RETRY_LATER} or {@link
     * #WAIT_FOR_PORT}.
     */
    abstract int execute(WorkRequest request, long sequence);

    /** Sets the state and mirrors it into the file for peers. Caller holds the send lock. */
    final void setState(QueuePairState newState) {
        storeState(newState);
        QueuePairDescriptor.setState(file, newState);
    }

    public final int postedReceives() {
        return (int) QueuePairDescriptor.postedReceives(file);
    }

    @Override
    protected final boolean isOwn(ShmMemoryRegion region) {
        return region.fabric == fabric;
    }

    /**
     * Runs the request now, on the posting thread (or defers it behind requests that wait); in ERROR completes it
     * FLUSHED. Caller holds the send lock.
     */
    @Override
    protected final void enqueue(WorkRequest request, ShmMemoryRegion local) {
        if (posted - retired >= config.sendQueueDepth()) {
            throw QueuePairChecks.sendQueueFull(qpn, config.sendQueueDepth());
        }
        long sequence = ++posted;
        if (state() == QueuePairState.ERROR) {
            completeSend(request.requestId(), request.opcode(), 0, CompletionStatus.FLUSHED, sequence);
            return;
        }
        long now = deferredCount > 0 || fabric.contention != null ? System.nanoTime() : 0; // read only when needed
        if (deferredCount > 0) {
            drainDeferred(now);
        }
        postedNs = now;
        if (deferredCount > 0) {
            defer(request, sequence, false);
        } else {
            int result = execute(request, sequence);
            if (result != DONE) {
                defer(request, sequence, result == RETRY_LATER);
            }
        }
    }

    /** The local source bytes of a SEND or WRITE. */
    static MemorySegment source(WorkRequest request) {
        return request.isInline() ? request.inlineData() : request.localRegion().segment();
    }

    static long sourceOffset(WorkRequest request) {
        return request.isInline() ? 0 : request.localOffset();
    }

    /** Publishes a send-queue completion: always for errors, for success only when signaled. */
    final void completeSend(long requestId, Opcode opcode, int byteLength, CompletionStatus status, long sequence) {
        sendCq.offer(requestId, status, opcode, byteLength, 0, false, true, sequence, qpn, 0, 0);
    }

    final void completeSendIfSignaled(WorkRequest request, int byteLength, long sequence) {
        if (request.signaled()) {
            completeSend(request.requestId(), request.opcode(), byteLength, CompletionStatus.SUCCESS, sequence);
        }
    }

    /** Called by the send CQ's poller: frees send-queue slots up to {@code sequence}. */
    final void retire(long sequence) {
        if (sequence > retired) {
            retired = sequence;
        }
    }

    /**
     * Fails {@code request} with {@code status} and moves the queue pair to ERROR: deferred requests complete with
     * FLUSHED, and so do the receives still posted. Caller holds {@link #sendLock}.
     */
    final void fail(WorkRequest request, long sequence, CompletionStatus status) {
        completeSend(request.requestId(), request.opcode(), 0, status, sequence);
        enterError(CompletionStatus.FLUSHED);
    }

    /** Moves to ERROR; deferred requests complete with {@code deferredStatus}. Caller holds {@link #sendLock}. */
    final void enterError(CompletionStatus deferredStatus) {
        if (state() == QueuePairState.ERROR || state() == QueuePairState.CLOSED) {
            return;
        }
        setState(QueuePairState.ERROR);
        while (deferredCount > 0) {
            WorkRequest request = deferred[deferredHead];
            completeSend(request.requestId(), request.opcode(), 0, deferredStatus, deferredSequence[deferredHead]);
            popDeferred();
        }
        flushReceives();
    }

    /** Completes every posted receive with FLUSHED, claiming them like a peer would. */
    private void flushReceives() {
        QueuePairDescriptor.ClaimedReceive claimed = new QueuePairDescriptor.ClaimedReceive();
        while (QueuePairDescriptor.claimReceive(file, claimed)) {
            receiveCq.offer(
                    claimed.requestId, CompletionStatus.FLUSHED, Opcode.RECEIVE, 0, 0, false, false, 0, qpn, 0, 0);
        }
    }

    public final void postReceive(long requestId, MemoryRegion region, long offset, int length) {
        receiveLock.lock();
        try {
            QueuePairState current = state();
            if (current == QueuePairState.CLOSED) {
                throw QueuePairChecks.queuePairClosed(qpn);
            }
            ShmMemoryRegion shmRegion = checkLocal(region, offset, length, true);
            if (current == QueuePairState.ERROR) {
                receiveCq.offer(requestId, CompletionStatus.FLUSHED, Opcode.RECEIVE, 0, 0, false, false, 0, qpn, 0, 0);
                return;
            }
            if (QueuePairDescriptor.postedReceives(file) >= config.receiveQueueDepth()) {
                throw QueuePairChecks.receiveQueueFull(qpn, config.receiveQueueDepth());
            }
            QueuePairDescriptor.postReceive(file, requestId, shmRegion.id, offset, length);
        } finally {
            receiveLock.unlock();
        }
        if (state() == QueuePairState.ERROR) {
            // raced with a transition to ERROR after our check: do not leave the receive stranded
            sendLock.lock();
            try {
                flushReceives();
            } finally {
                sendLock.unlock();
            }
        }
    }

    /** @param receiverNotReady whether the request waits for a receive (counted), not for its turn or its port */
    private void defer(WorkRequest request, long sequence, boolean receiverNotReady) {
        int slot = (deferredHead + deferredCount) % deferred.length;
        WorkRequest copy = deferred[slot].copyFrom(request);
        if (request.isInline()) {
            // inline bytes belong to the caller once postSend returns: keep our own copy
            MemorySegment bytes = Arena.ofAuto().allocate(Math.max(1, request.length()));
            MemorySegment.copy(request.inlineData(), 0, bytes, 0, request.length());
            copy.inline(bytes.asSlice(0, request.length()));
        }
        deferredSequence[slot] = sequence;
        deferredPostedNs[slot] = postedNs;
        deferredDeadlineNs[slot] =
                System.nanoTime() + fabric.config().receiverNotReadyTimeout().toNanos();
        deferredCount++;
        if (receiverNotReady) {
            fabric.countReceiverNotReady();
        }
        hasDeferredWork = true;
        fabric.wakeProgress();
    }

    private void popDeferred() {
        deferred[deferredHead].clear();
        deferredHead = (deferredHead + 1) % deferred.length;
        deferredCount--;
        if (deferredCount == 0) {
            hasDeferredWork = hasOtherDeferredWork();
        }
    }

    /** Subclasses with deferred work of their own (a held UD datagram) keep the progress agent interested. */
    boolean hasOtherDeferredWork() {
        return false;
    }

    /**
     * Retries deferred requests in order; a request still not runnable after its deadline fails with
     * RECEIVER_NOT_READY_RETRY_EXCEEDED. Caller holds {@link #sendLock}. Returns the requests completed.
     */
    int drainDeferred(long nowNs) {
        int done = 0;
        while (deferredCount > 0 && state() == QueuePairState.READY) {
            WorkRequest request = deferred[deferredHead];
            long sequence = deferredSequence[deferredHead];
            postedNs = deferredPostedNs[deferredHead];
            int result = execute(request, sequence);
            if (result == DONE) {
                popDeferred();
                done++;
            } else if (result == WAIT_FOR_PORT) {
                deferredDeadlineNs[deferredHead] =
                        nowNs + fabric.config().receiverNotReadyTimeout().toNanos();
                break;
            } else if (nowNs - deferredDeadlineNs[deferredHead] > 0) {
                // complete before popping: popping clears the queued copy of the request
                completeSend(
                        request.requestId(),
                        request.opcode(),
                        0,
                        CompletionStatus.RECEIVER_NOT_READY_RETRY_EXCEEDED,
                        sequence);
                popDeferred();
                enterError(CompletionStatus.FLUSHED);
                done++;
            } else {
                break;
            }
        }
        return done;
    }

    /** The progress agent's entry: retries deferred work if nobody else holds the lock. */
    int progress(long nowNs) {
        if (!hasDeferredWork || !sendLock.tryLock()) {
            return 0;
        }
        try {
            return drainDeferred(nowNs);
        } finally {
            sendLock.unlock();
        }
    }

    /** The progress agent's entry when a peer node failed: RC queue pairs connected to it enter ERROR. */
    void onPeerFailed(long node) {}

    /**
     * Called by the receive CQ's poller for an error completion of this queue pair's receive (e.g. a SEND larger
     * than the posted buffer): an RC queue pair enters ERROR, as every error completion moves it there.
     */
    void onReceiveError() {}

    public void close() {
        sendLock.lock();
        try {
            if (state() == QueuePairState.CLOSED) {
                return;
            }
            setState(QueuePairState.CLOSED);
            deferredCount = 0;
            hasDeferredWork = false;
        } finally {
            sendLock.unlock();
        }
        receiveLock.lock();
        try {
            SharedMemory.deleteQuietly(path);
            arena.close();
        } finally {
            receiveLock.unlock();
        }
        sendCq.detach(config.sendQueueDepth());
        receiveCq.detach(config.receiveQueueDepth());
        fabric.forget(this);
    }
}
