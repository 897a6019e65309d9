package dev.faro.zerosided.link;

import dev.faro.fabric.FaultInjection;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link PacketLink} that injects seeded faults into what it sends: loss, duplication, reordering (a datagram held
 * back and sent after the next one, or after {@link #REORDER_HOLD_NS} when no other follows) and a fixed delay. The
 * faults are those of {@link FaultInjection} (shared with the verbs fabric's UD providers) plus the delay; the same
 * seed and the same sequence of sends give the same faults. Receiving is passed through; every call also sends what
 * has become due, so the owning agent's polling drives the delays; {@link #awaitDatagram} wakes it when one is due.
 *
 * <p>Owned by one thread, as every link. Data path: allocation-free after construction.
 */
public final class FaultyLink implements PacketLink {

    /** How long a reordered datagram waits for a successor before it is sent anyway. */
    static final long REORDER_HOLD_NS = 200_000;

    /** Datagrams that may be delayed at once; beyond that a delayed datagram is dropped (a full queue). */
    private static final int DELAY_SLOTS = 4096;

    private final PacketLink inner;
    private final FaultInjection faults;
    private final long delayNs;
    private final SplittableRandom random;

    private final byte[][] delayed;
    private final int[] delayedLengths;
    private final int[] delayedDestinations;
    private final long[] delayedDueNs;
    private long delayedHead;
    private long delayedTail;

    private final ByteBuffer held;
    private int heldLength = -1;
    private int heldDestination;
    private long heldSinceNs;

    private final ByteBuffer scratch;
    private long injectedLosses;
    private long dropped;

    /**
     * Wraps {@code inner}.
     *
     * @param faults loss, duplicate and reorder probabilities per datagram, and the seed
     * @param delayNs a delay added to every datagram (0: none)
     */
    public FaultyLink(PacketLink inner, FaultInjection faults, long delayNs) {
        if (delayNs < 0) {
            throw new IllegalArgumentException("delayNs must be >= 0: delayNs=" + delayNs);
        }
        this.inner = inner;
        this.faults = faults;
        this.delayNs = delayNs;
        this.random = new SplittableRandom(faults.seed());
        int slots = delayNs > 0 ? DELAY_SLOTS : 0;
        this.delayed = new byte[slots][InProcessNetwork.SLOT_BYTES];
        this.delayedLengths = new int[slots];
        this.delayedDestinations = new int[slots];
        this.delayedDueNs = new long[slots];
        this.held = ByteBuffer.allocate(InProcessNetwork.SLOT_BYTES);
        this.scratch = ByteBuffer.allocate(InProcessNetwork.SLOT_BYTES);
    }

    @Override
    public int port() {
        return inner.port();
    }

    @Override
    public void send(ByteBuffer buffer, int offset, int length, int destinationPort) {
        long nowNs = System.nanoTime();
        flushDue(nowNs);
        if (random.nextDouble() < faults.lossRate()) {
            injectedLosses++;
            return;
        }
        int copies = random.nextDouble() < faults.duplicateRate() ? 2 : 1;
        // drawn for every datagram, held or not, so that which datagrams are lost and duplicated depends on the seed
        // alone and not on whether the clock released a held one earlier
        boolean reorder = random.nextDouble() < faults.reorderRate();
        if (heldLength < 0 && reorder) {
            held.put(0, buffer, offset, length);
            heldLength = length;
            heldDestination = destinationPort;
            heldSinceNs = nowNs;
            copies--;
            if (copies == 0) {
                return;
            }
        }
        for (int i = 0; i < copies; i++) {
            forward(buffer, offset, length, destinationPort, nowNs);
        }
        releaseHeld(nowNs);
    }

    private void forward(ByteBuffer buffer, int offset, int length, int destinationPort, long nowNs) {
        if (delayNs == 0) {
            inner.send(buffer, offset, length, destinationPort);
            return;
        }
        if (delayedTail - delayedHead == delayed.length) {
            dropped++;
            return;
        }
        int slot = (int) (delayedTail % delayed.length);
        buffer.get(offset, delayed[slot], 0, length);
        delayedLengths[slot] = length;
        delayedDestinations[slot] = destinationPort;
        delayedDueNs[slot] = nowNs + delayNs;
        delayedTail++;
    }

    private void releaseHeld(long nowNs) {
        if (heldLength >= 0) {
            int length = heldLength;
            heldLength = -1;
            forward(held, 0, length, heldDestination, nowNs);
        }
    }

    private void flushDue(long nowNs) {
        if (heldLength >= 0 && nowNs - heldSinceNs >= REORDER_HOLD_NS) {
            releaseHeld(nowNs);
        }
        while (delayedHead != delayedTail) {
            int slot = (int) (delayedHead % delayed.length);
            if (delayedDueNs[slot] - nowNs > 0) {
                break;
            }
            scratch.put(0, delayed[slot], 0, delayedLengths[slot]);
            inner.send(scratch, 0, delayedLengths[slot], delayedDestinations[slot]);
            delayedHead++;
        }
    }

    @Override
    public int receive(ByteBuffer buffer, int offset) {
        if (heldLength >= 0 || delayedHead != delayedTail) {
            flushDue(System.nanoTime());
        }
        return inner.receive(buffer, offset);
    }

    /**
     * Waits as the inner link does while nothing is held back or delayed, so that senders' wake-ups reach the owner;
     * otherwise parks only until the earliest held or delayed datagram is due (at most {@code timeoutNanos}), since
     * {@link #receive} sends it only when the owner polls again.
     */
    @Override
    public void awaitDatagram(long timeoutNanos) {
        if (heldLength < 0 && delayedHead == delayedTail) {
            inner.awaitDatagram(timeoutNanos);
            return;
        }
        long nowNs = System.nanoTime();
        long untilDueNs = timeoutNanos;
        if (heldLength >= 0) {
            untilDueNs = Math.min(untilDueNs, heldSinceNs + REORDER_HOLD_NS - nowNs);
        }
        if (delayedHead != delayedTail) {
            // due times grow with the tail (each is the send time plus one fixed delay): the head is the earliest
            untilDueNs = Math.min(untilDueNs, delayedDueNs[(int) (delayedHead % delayed.length)] - nowNs);
        }
        if (untilDueNs > 0) {
            LockSupport.parkNanos(untilDueNs);
        }
    }

    @Override
    public void beginBurst() {
        inner.beginBurst();
    }

    @Override
    public void endBurst() {
        inner.endBurst();
    }

    @Override
    public int sourcePort() {
        return inner.sourcePort();
    }

    /** Datagrams this link dropped on purpose (injected loss). */
    public long injectedLosses() {
        return injectedLosses;
    }

    @Override
    public long droppedDatagrams() {
        return inner.droppedDatagrams() + injectedLosses + dropped;
    }

    @Override
    public void close() {
        inner.close();
    }
}
