package dev.faro.fabric.shm;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.FaultInjection;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.QueuePairType;
import dev.faro.fabric.UdQueuePair;
import dev.faro.fabric.WorkRequest;
import dev.faro.fabric.spi.QueuePairChecks;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * A UD queue pair on the {@code shm} fabric: SENDs of at most {@link #MTU_BYTES} to any UD queue pair. A SEND that
 * finds no receive posted is dropped and counted at the target; a destination that does not exist (closed, dead) drops
 * silently. Either way the sender's completion is SUCCESS, as with a real UD NIC.
 *
 * <p>Seeded fault injection (loss, duplication, reordering by holding one datagram back until the next send or a
 * short deadline) applies to this queue pair's sends when the fabric is configured with it.
 *
 * <p>Data path: allocation-free.
 */
final class ShmUdQueuePair extends ShmQueuePair implements UdQueuePair {

    static final int MTU_BYTES = 4096;
    private static final long HOLD_NS = 20_000_000;

    private final FaultInjection faults;
    private final SplittableRandom random;
    private final QueuePairDescriptor.ClaimedReceive claimed = new QueuePairDescriptor.ClaimedReceive();

    /** The region file the datagram in delivery goes to, once known; guarded by sendLock. */
    private MemorySegment targetRegion;

    // One datagram held back by reorder injection; guarded by sendLock.
    private final MemorySegment held;
    private ShmQueuePairAddress heldDestination;
    private int heldLength;
    private long heldDeadlineNs;

    ShmUdQueuePair(ShmFabric fabric, Path directory, int qpn, QueuePairConfig config) {
        super(fabric, directory, qpn, QueuePairType.UD, config, QueuePairState.READY);
        this.faults = fabric.config().faults();
        this.random = new SplittableRandom(faults.seed() * 0x9E3779B97F4A7C15L + qpn);
        this.held = faults.reorderRate() > 0 ? Arena.ofAuto().allocate(MTU_BYTES) : null;
    }

    @Override
    public int mtuBytes() {
        return MTU_BYTES;
    }

    @Override
    public long receivesMissed() {
        return QueuePairDescriptor.receivesMissed(file);
    }

    @Override
    protected void validateForType(WorkRequest request) {
        QueuePairChecks.checkUdRequest(request, MTU_BYTES, ShmQueuePairAddress.class, ShmFabricProvider.NAME);
    }

    @Override
    int execute(WorkRequest request, long sequence) {
        ShmQueuePairAddress destination = (ShmQueuePairAddress) request.destination();
        MemorySegment source = source(request);
        long sourceOffset = sourceOffset(request);
        int length = request.length();
        if (!faults.isEnabled()) {
            deliver(destination, source, sourceOffset, length);
        } else {
            deliverWithFaults(destination, source, sourceOffset, length);
        }
        completeSendIfSignaled(request, length, sequence);
        return DONE;
    }

    private void deliverWithFaults(ShmQueuePairAddress destination, MemorySegment source, long offset, int length) {
        if (random.nextDouble() < faults.lossRate()) {
            fabric.countFaultLoss();
        } else if (held != null && heldDestination == null && random.nextDouble() < faults.reorderRate()) {
            MemorySegment.copy(source, offset, held, 0, length);
            heldDestination = destination;
            heldLength = length;
            heldDeadlineNs = System.nanoTime() + HOLD_NS;
            fabric.countFaultReorder();
            hasDeferredWork = true;
            fabric.wakeProgress();
            return; // delivered after the next send, or by the progress agent at the deadline
        } else {
            deliver(destination, source, offset, length);
            if (random.nextDouble() < faults.duplicateRate()) {
                fabric.countFaultDuplicate();
                deliver(destination, source, offset, length);
            }
        }
        releaseHeld();
    }

    private void releaseHeld() {
        if (heldDestination != null) {
            ShmQueuePairAddress destination = heldDestination;
            heldDestination = null;
            deliver(destination, held, 0, heldLength);
        }
    }

    /**
     * Places one datagram into the destination's next posted receive, or drops it; also when a file of the destination
     * is unmapped meanwhile (its owner closed it; see {@link PeerNode}), which FFM reports as an
     * {@link IllegalStateException}.
     */
    private void deliver(ShmQueuePairAddress destination, MemorySegment source, long offset, int length) {
        ShmQueuePairAddress.Target target = destination.resolve(fabric);
        if (target == null || target.peer().isFailed()) {
            return;
        }
        targetRegion = null;
        try {
            deliverTo(target, destination, source, offset, length);
        } catch (IllegalStateException e) {
            if (SharedMemory.isMapped(target.queuePair())
                    && SharedMemory.isMapped(target.receiveCompletionQueue())
                    && (targetRegion == null || SharedMemory.isMapped(targetRegion))) {
                throw e;
            }
        }
    }

    private void deliverTo(
            ShmQueuePairAddress.Target target,
            ShmQueuePairAddress destination,
            MemorySegment source,
            long offset,
            int length) {
        MemorySegment ring = target.queuePair();
        if (QueuePairDescriptor.stateOrdinal(ring) != QueuePairState.READY.ordinal()
                || QueuePairDescriptor.type(ring) != QueuePairType.UD) {
            return;
        }
        if (!QueuePairDescriptor.claimReceive(ring, claimed)) {
            QueuePairDescriptor.countReceiveMissed(ring);
            return;
        }
        if (claimed.length < length) {
            CompletionQueueDescriptor.offer(
                    target.receiveCompletionQueue(),
                    claimed.requestId,
                    CompletionStatus.LOCAL_LENGTH_ERROR,
                    Opcode.RECEIVE,
                    0,
                    0,
                    false,
                    false,
                    0,
                    destination.queuePairNumber(),
                    fabric.node(),
                    qpn);
            return;
        }
        MemorySegment region = target.peer().region(claimed.regionId);
        targetRegion = region;
        if (region == null) {
            return;
        }
        SharedMemory.copyLastWordLast(source, offset, region, RegionDescriptor.DATA_OFFSET + claimed.offset, length);
        CompletionQueueDescriptor.offer(
                target.receiveCompletionQueue(),
                claimed.requestId,
                CompletionStatus.SUCCESS,
                Opcode.RECEIVE,
                length,
                0,
                false,
                false,
                0,
                destination.queuePairNumber(),
                fabric.node(),
                qpn);
    }

    @Override
    boolean hasOtherDeferredWork() {
        return heldDestination != null;
    }

    @Override
    int progress(long nowNs) {
        if (!hasDeferredWork || !sendLock.tryLock()) {
            return 0;
        }
        try {
            if (heldDestination != null && nowNs - heldDeadlineNs > 0) {
                releaseHeld();
                hasDeferredWork = false;
                return 1;
            }
            return 0;
        } finally {
            sendLock.unlock();
        }
    }

    /** {@link #receivesMissed()} as it was when the queue pair closed, for the fabric's counters. */
    volatile long receivesMissedAtClose;

    @Override
    public void close() {
        if (state() != QueuePairState.CLOSED) {
            receivesMissedAtClose = receivesMissed();
        }
        super.close();
    }

    @Override
    public String toString() {
        return "ShmUdQueuePair[qpn=" + qpn + ", state=" + state() + "]";
    }
}
