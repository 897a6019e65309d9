package dev.faro.fabric.shm;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.QueuePairType;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.WorkRequest;
import dev.faro.fabric.spi.QueuePairChecks;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * An RC queue pair on the {@code shm} fabric. Every request runs on the posting thread, in posting order: the
 * initiator checks the target's key, bounds and rights in the target's region header, moves the bytes itself, and
 * publishes the target's receive completion (SEND, WRITE_WITH_IMMEDIATE) and its own.
 *
 * <p>Data path: allocation-free after {@link #connect}.
 */
final class ShmRcQueuePair extends ShmQueuePair implements RcQueuePair {

    // The peer, resolved at connect; written once under sendLock before state becomes READY.
    private ShmQueuePairAddress peerAddress;
    private PeerNode peer;
    private MemorySegment peerQueuePair;
    private MemorySegment peerReceiveCq;

    /** The target region file of the request in flight, once known; guarded by sendLock. */
    private MemorySegment targetRegion;

    /**
     * With the contention model: when the switch lets the request at the head of this queue pair through ({@link
     * PortContention#admit}), 0 before it is admitted; guarded by sendLock.
     */
    private long portRelease;

    /** The receive taken off the peer's ring by the request in flight; guarded by sendLock. */
    private final QueuePairDescriptor.ClaimedReceive claimed = new QueuePairDescriptor.ClaimedReceive();

    ShmRcQueuePair(ShmFabric fabric, Path directory, int qpn, QueuePairConfig config) {
        super(fabric, directory, qpn, QueuePairType.RC, config, QueuePairState.INIT);
    }

    @Override
    public QueuePairAddress peer() {
        return peerAddress;
    }

    @Override
    public void connect(QueuePairAddress remote) {
        if (!(remote instanceof ShmQueuePairAddress shmAddress) || remote.type() != QueuePairType.RC) {
            throw QueuePairChecks.notAnRcAddress(ShmFabricProvider.NAME, remote);
        }
        sendLock.lock();
        try {
            QueuePairChecks.checkConnectable(qpn, state());
            ShmQueuePairAddress.Target target = shmAddress.resolve(fabric);
            if (target == null) {
                throw new FaroException(
                        FaroException.Category.NETWORK,
                        "cannot connect queue pair " + qpn + " to " + remote + ": no such queue pair (closed?)");
            }
            this.peerAddress = shmAddress;
            this.peer = target.peer();
            this.peerQueuePair = target.queuePair();
            this.peerReceiveCq = target.receiveCompletionQueue();
            QueuePairDescriptor.setPeer(file, shmAddress.node(), shmAddress.queuePairNumber());
            setState(QueuePairState.READY);
            fabric.watch(peer);
        } finally {
            sendLock.unlock();
        }
    }

    @Override
    protected void validateForType(WorkRequest request) {
        QueuePairChecks.checkRcRequest(request, qpn, state(), ShmRemoteKey.class, ShmFabricProvider.NAME);
    }

    @Override
    int execute(WorkRequest request, long sequence) {
        int result = run(request, sequence);
        if (result == DONE) {
            portRelease = 0; // the next request is admitted afresh
        }
        return result;
    }

    private int run(WorkRequest request, long sequence) {
        if (peer.isFailed()) {
            fail(request, sequence, CompletionStatus.RETRY_EXCEEDED);
            return DONE;
        }
        targetRegion = null;
        try {
            if (!SharedMemory.isMapped(peerQueuePair)
                    || !SharedMemory.isMapped(peerReceiveCq)
                    || QueuePairDescriptor.stateOrdinal(peerQueuePair) != QueuePairState.READY.ordinal()
                    || QueuePairDescriptor.peerNode(peerQueuePair) != fabric.node()
                    || QueuePairDescriptor.peerQpn(peerQueuePair) != qpn) {
                fail(request, sequence, CompletionStatus.REMOTE_OPERATION_ERROR);
                return DONE;
            }
            return switch (request.opcode()) {
                case SEND -> send(request, sequence);
                case WRITE, WRITE_WITH_IMMEDIATE -> write(request, sequence);
                case READ -> read(request, sequence);
                case FETCH_ADD, COMPARE_SWAP -> atomic(request, sequence);
                case RECEIVE, RECEIVE_WRITE_WITH_IMMEDIATE ->
                    throw new IllegalStateException("validated opcode cannot be " + request.opcode());
            };
        } catch (IllegalStateException e) {
            return failUnmapped(request, sequence, e);
        }
    }

    /**
     * FFM threw because a peer file this request used was unmapped meanwhile: its owner retired it (a region
     * deregistered, the peer's queue pair or completion queue closed) and the progress agent unmapped it (see {@link
     * PeerNode}). The request fails as it would have against the retired file. Any other cause propagates.
     */
    private int failUnmapped(WorkRequest request, long sequence, IllegalStateException e) {
        boolean regionGone = targetRegion != null && !SharedMemory.isMapped(targetRegion);
        if (!regionGone && SharedMemory.isMapped(peerQueuePair) && SharedMemory.isMapped(peerReceiveCq)) {
            throw e;
        }
        fail(
                request,
                sequence,
                regionGone ? CompletionStatus.REMOTE_ACCESS_ERROR : CompletionStatus.REMOTE_OPERATION_ERROR);
        return DONE;
    }

    /** The target region's file if the request's key, bounds and right hold there; null otherwise. */
    private MemorySegment permittedRegion(WorkRequest request, Access right, long length) {
        ShmRemoteKey key = (ShmRemoteKey) request.remoteKey();
        if (key.node != peerAddress.node()) {
            return null; // a key of another node means nothing at this peer
        }
        MemorySegment region = key.resolve(fabric);
        targetRegion = region;
        if (region == null || !RegionDescriptor.permits(region, key.key, right.bit(), request.remoteOffset(), length)) {
            return null;
        }
        return region;
    }

    private int send(WorkRequest request, long sequence) {
        int length = request.length();
        if (!portAdmits(length)) {
            return WAIT_FOR_PORT;
        }
        if (!QueuePairDescriptor.claimReceive(peerQueuePair, claimed)) {
            return RETRY_LATER;
        }
        if (claimed.length < length) {
            CompletionQueueDescriptor.offer(
                    peerReceiveCq,
                    claimed.requestId,
                    CompletionStatus.LOCAL_LENGTH_ERROR,
                    Opcode.RECEIVE,
                    0,
                    0,
                    false,
                    false,
                    0,
                    peerAddress.queuePairNumber(),
                    fabric.node(),
                    qpn);
            fail(request, sequence, CompletionStatus.REMOTE_INVALID_REQUEST);
            return DONE;
        }
        MemorySegment region = peer.region(claimed.regionId);
        targetRegion = region;
        if (region == null) {
            fail(request, sequence, CompletionStatus.REMOTE_OPERATION_ERROR);
            return DONE;
        }
        SharedMemory.copyLastWordLast(
                source(request), sourceOffset(request), region, RegionDescriptor.DATA_OFFSET + claimed.offset, length);
        CompletionQueueDescriptor.offer(
                peerReceiveCq,
                claimed.requestId,
                CompletionStatus.SUCCESS,
                Opcode.RECEIVE,
                length,
                0,
                false,
                false,
                0,
                peerAddress.queuePairNumber(),
                fabric.node(),
                qpn);
        completeSendIfSignaled(request, length, sequence);
        return DONE;
    }

    private int write(WorkRequest request, long sequence) {
        int length = request.length();
        MemorySegment region = permittedRegion(request, Access.REMOTE_WRITE, length);
        if (region == null) {
            fail(request, sequence, CompletionStatus.REMOTE_ACCESS_ERROR);
            return DONE;
        }
        if (!portAdmits(length)) {
            return WAIT_FOR_PORT;
        }
        boolean withImmediate = request.opcode() == Opcode.WRITE_WITH_IMMEDIATE;
        if (withImmediate && !QueuePairDescriptor.claimReceive(peerQueuePair, claimed)) {
            return RETRY_LATER;
        }
        SharedMemory.copyLastWordLast(
                source(request),
                sourceOffset(request),
                region,
                RegionDescriptor.DATA_OFFSET + request.remoteOffset(),
                length);
        if (withImmediate) {
            CompletionQueueDescriptor.offer(
                    peerReceiveCq,
                    claimed.requestId,
                    CompletionStatus.SUCCESS,
                    Opcode.RECEIVE_WRITE_WITH_IMMEDIATE,
                    length,
                    request.immediate(),
                    true,
                    false,
                    0,
                    peerAddress.queuePairNumber(),
                    fabric.node(),
                    qpn);
        }
        completeSendIfSignaled(request, length, sequence);
        return DONE;
    }

    /**
     * Whether the switch lets {@code length} bytes through to the peer now: always without the contention model;
     * with it, the request is admitted on its first try ({@link PortContention#admit}) and waits (deferred, as in a
     * NIC's send queue, the posting thread going on) until its release.
     */
    private boolean portAdmits(int length) {
        PortContention contention = fabric.contention;
        if (contention == null || !PortContention.isModelled(length)) {
            return true;
        }
        if (portRelease == 0) {
            long release = contention.admit(fabric.nodeFile(), peer.nodeFile(), length, postedNs);
            if (release == PortContention.NOT_ADMITTED) {
                return false; // the node's link is busy: try again later
            }
            portRelease = release;
        }
        return System.nanoTime() - portRelease >= 0;
    }

    private int read(WorkRequest request, long sequence) {
        int length = request.length();
        MemorySegment region = permittedRegion(request, Access.REMOTE_READ, length);
        if (region == null) {
            fail(request, sequence, CompletionStatus.REMOTE_ACCESS_ERROR);
            return DONE;
        }
        MemorySegment.copy(
                region,
                RegionDescriptor.DATA_OFFSET + request.remoteOffset(),
                request.localRegion().segment(),
                request.localOffset(),
                length);
        completeSendIfSignaled(request, length, sequence);
        return DONE;
    }

    private int atomic(WorkRequest request, long sequence) {
        MemorySegment region = permittedRegion(request, Access.REMOTE_ATOMIC, 8);
        if (region == null) {
            fail(request, sequence, CompletionStatus.REMOTE_ACCESS_ERROR);
            return DONE;
        }
        long offset = RegionDescriptor.DATA_OFFSET + request.remoteOffset();
        long old = request.opcode() == Opcode.FETCH_ADD
                ? (long) SharedMemory.LONG.getAndAdd(region, offset, request.compareOrAdd())
                : (long) SharedMemory.LONG.compareAndExchange(region, offset, request.compareOrAdd(), request.swap());
        request.localRegion().segment().set(ValueLayout.JAVA_LONG_UNALIGNED, request.localOffset(), old);
        completeSendIfSignaled(request, 8, sequence);
        return DONE;
    }

    @Override
    void onPeerFailed(long node) {
        if (peerAddress == null || peerAddress.node() != node) {
            return;
        }
        sendLock.lock();
        try {
            enterError(CompletionStatus.RETRY_EXCEEDED);
        } finally {
            sendLock.unlock();
        }
    }

    @Override
    void onReceiveError() {
        sendLock.lock();
        try {
            enterError(CompletionStatus.FLUSHED);
        } finally {
            sendLock.unlock();
        }
    }

    @Override
    public String toString() {
        return "ShmRcQueuePair[qpn=" + qpn + ", state=" + state() + ", peer=" + peerAddress + "]";
    }
}
