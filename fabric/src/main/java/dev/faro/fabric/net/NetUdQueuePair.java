package dev.faro.fabric.net;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.FaultInjection;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.QueuePairType;
import dev.faro.fabric.UdQueuePair;
import dev.faro.fabric.WorkRequest;
import dev.faro.fabric.spi.QueuePairChecks;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * A UD queue pair of the {@code net} fabric: every SEND becomes one UDP datagram of at most {@link #MTU_BYTES} payload
 * bytes, sent by the node's progress thread ({@link DatagramEndpoint}); the sender's completion means the datagram
 * left, not that it arrived. Arriving datagrams consume posted receives in arrival order; one that finds none is
 * dropped and counted ({@link #receivesMissed()}).
 *
 * <p>Seeded fault injection, as on {@code shm}, applies to this queue pair's sends: loss, duplication, and reordering
 * by holding one datagram back until the next send (or a short deadline). The decisions are drawn once per send, in
 * posting order, from a generator seeded with the configured seed and the queue pair number, so a run repeats.
 *
 * <p>Data path: allocation-free.
 */
final class NetUdQueuePair extends NetQueuePair implements UdQueuePair {

    static final int MTU_BYTES = 4096;
    /** How long a datagram held back by reorder injection waits for a later send before it goes anyway. */
    static final long HOLD_NS = 20_000_000;

    static final int DELIVER = 0;
    static final int LOSE = 1;
    static final int HOLD = 2;
    static final int DUPLICATE = 3;

    final FaultInjection faults;
    private final SplittableRandom random;

    /** Arrivals that found no receive; written by the progress thread only. */
    private volatile long receivesMissed;

    // Progress thread only.
    /** The fault decision for the send at nextToComplete, drawn once even if the socket makes it wait. */
    long decidedSequence;

    int decision;
    /** One datagram held back by reorder injection (header, payload and tag), with its destination. */
    final ByteBuffer held;

    NetQueuePairAddress heldDestination;
    long heldDeadlineNs;

    NetUdQueuePair(NetFabric fabric, int qpn, QueuePairConfig config) {
        super(fabric, qpn, config, QueuePairType.UD);
        this.faults = fabric.config().faults();
        this.random = new SplittableRandom(faults.seed() * 0x9E3779B97F4A7C15L + qpn);
        this.held = faults.reorderRate() > 0 ? ByteBuffer.allocateDirect(DatagramDescriptor.MAX_LENGTH) : null;
    }

    @Override
    public int mtuBytes() {
        return MTU_BYTES;
    }

    @Override
    public long receivesMissed() {
        return receivesMissed;
    }

    /** Progress thread: an arrival found no posted receive. */
    void countReceiveMissed() {
        receivesMissed = receivesMissed + 1;
    }

    @Override
    protected void validateForType(WorkRequest request) {
        QueuePairChecks.checkUdRequest(request, MTU_BYTES, NetQueuePairAddress.class, NetFabricProvider.NAME);
    }

    // --------------------------------------------------------------------------------------- progress thread only

    /** The fault decision for the send with {@code sequence}, drawn on first use. */
    int decide(long sequence) {
        if (decidedSequence != sequence) {
            decidedSequence = sequence;
            if (!faults.isEnabled()) {
                decision = DELIVER;
            } else if (random.nextDouble() < faults.lossRate()) {
                decision = LOSE;
            } else if (held != null && heldDestination == null && random.nextDouble() < faults.reorderRate()) {
                decision = HOLD;
            } else {
                decision = random.nextDouble() < faults.duplicateRate() ? DUPLICATE : DELIVER;
            }
        }
        return decision;
    }

    @Override
    boolean hasPendingPosts() {
        return nextToComplete <= posted();
    }

    /** Sends waiting datagrams. Returns the sends completed. */
    int transmit(DatagramEndpoint endpoint, long nowNs) {
        long last = posted();
        int done = 0;
        while (nextToComplete <= last && done < 64) {
            if (state() != QueuePairState.READY) {
                return done + flushIfInError();
            }
            if (!endpoint.send(this, slot(nextToComplete), nowNs)) {
                break; // the socket is full: retry when it drains
            }
            completeNext(CompletionStatus.SUCCESS);
            done++;
        }
        return done;
    }

    /** {@link #receivesMissed()} as it was when the queue pair closed, for the fabric's counters. */
    volatile long receivesMissedAtClose;

    @Override
    public void close() {
        if (state() != QueuePairState.CLOSED) {
            receivesMissedAtClose = receivesMissed;
        }
        super.close();
    }

    @Override
    public String toString() {
        return "NetUdQueuePair[qpn=" + qpn + ", state=" + state() + "]";
    }
}
