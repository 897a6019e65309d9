package dev.faro.join.rma;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.MemorySegment;

/**
 * One thread's access to the group's peers: a completion queue and one RC queue pair per peer rank, over which the
 * thread posts one-sided puts into {@link RmaWindow}s. Every put names a <em>request slot</em>; the slot is pending
 * until the put's completion is polled, which is the per-request completion of MPI's {@code MPI_Rput} + wait.
 * {@link #flush()} waits for every put of the lane ({@code MPI_Win_flush_all} for this thread). A notified put
 * ({@link #putNotify}) is a WRITE_WITH_IMMEDIATE: the target's lane of the same index sees its immediate through
 * {@link #pollNotification()} (foMPI-NA's notified access). A lane buffers at most the next power of two of
 * {@code ranks × notificationDepth} notifications not yet taken; one more fails the lane with
 * {@link FaroException.Category#QUEUE_FULL}.
 *
 * <p>Threading: a lane is confined to one thread at a time. Data path: {@link #put}, {@link #putNotify},
 * {@link #isComplete}, {@link #await} and {@link #flush} allocate nothing. A failed completion (the peer died or
 * closed) fails the call that polled it, and every later call, with {@link FaroException.Category#NETWORK}; a wait
 * longer than the group's timeout fails with {@code TIMEOUT}.
 */
public final class RmaLane {

    /** The request ids of probes (8-byte READs that find out whether a silent peer still lives) start here. */
    private static final long PROBE_REQUEST_BASE = 1L << 40;

    private static final int POLL_BATCH = 32;

    private final RmaGroup group;
    private final int index;
    private final CompletionQueue completionQueue;
    /** By peer rank; null at this rank. */
    private final RcQueuePair[] queuePairs;

    private final MemoryRegion scratch;
    private final WorkRequest request = new WorkRequest();
    private final WorkCompletion[] completions = WorkCompletion.array(POLL_BATCH);
    private final boolean[] pending;
    private final int[] slotRank;
    private final int[] outstandingByRank;
    private final boolean[] probing;
    private final int sendQueueDepth;
    private int outstanding;
    /** With a bandwidth cap: by slot, when the emulated link has sent the slot's put; and the latest of them. */
    private final long[] sentAtNanos;

    private long lastSentAtNanos;

    // Notifications received and not yet taken: a ring of (rank, immediate).
    private final int[] notificationRanks;
    private final int[] notificationImmediates;
    private long notificationsIn;
    private long notificationsOut;

    private FaroException failure;
    /** Set when a posted receive was flushed: some peer closed or died, so a notification may never come. */
    private boolean receiveFailed;
    /** Set by {@link #drainLeniently()}: failed completions no longer fail the lane. */
    private boolean lenient;

    private long puts;
    private long bytesPut;

    RmaLane(
            RmaGroup group,
            int index,
            CompletionQueue completionQueue,
            RcQueuePair[] queuePairs,
            MemoryRegion scratch,
            RmaConfig config) {
        this.group = group;
        this.index = index;
        this.completionQueue = completionQueue;
        this.queuePairs = queuePairs;
        this.scratch = scratch;
        this.pending = new boolean[config.requestSlots()];
        this.slotRank = new int[config.requestSlots()];
        this.outstandingByRank = new int[queuePairs.length];
        this.probing = new boolean[queuePairs.length];
        this.sendQueueDepth = config.sendQueueDepth();
        this.sentAtNanos = new long[config.requestSlots()];
        this.lastSentAtNanos = System.nanoTime();
        java.util.Arrays.fill(sentAtNanos, lastSentAtNanos);
        int ring = Integer.highestOneBit(Math.max(1, queuePairs.length * config.notificationDepth()) * 2 - 1);
        this.notificationRanks = new int[ring];
        this.notificationImmediates = new int[ring];
    }

    /** The lane's index in its group ({@link RmaGroup#lane(int)}). */
    public int index() {
        return index;
    }

    /** The number of request slots: valid slots are {@code [0, requestSlots())}. */
    public int requestSlots() {
        return pending.length;
    }

    /**
     * Posts a WRITE of {@code length} bytes at {@code sourceOffset} of the registered {@code source} to byte
     * {@code targetOffset} of {@code window} at {@code rank}; slot {@code slot} is pending until it completes. At this
     * rank the bytes are copied at once and the slot completes immediately. When a send queue depth of requests towards
     * {@code rank} are already outstanding, polls completions until one frees up first.
     *
     * @throws IllegalStateException if {@code slot} is still pending
     */
    public void put(
            int rank,
            RmaWindow window,
            long targetOffset,
            MemoryRegion source,
            long sourceOffset,
            int length,
            int slot) {
        post(Opcode.WRITE, rank, window, targetOffset, source, sourceOffset, length, 0, slot);
    }

    /**
     * As {@link #put}, as a WRITE_WITH_IMMEDIATE: the target's lane of this index receives {@code immediate} (and this
     * rank) through {@link #pollNotification()} once the bytes are in place. Not for this rank itself.
     */
    public void putNotify(
            int rank,
            RmaWindow window,
            long targetOffset,
            MemoryRegion source,
            long sourceOffset,
            int length,
            int immediate,
            int slot) {
        FaroException.checkArgument(rank != group.rank(), "a notified put needs a peer rank, not this one: %d", rank);
        post(Opcode.WRITE_WITH_IMMEDIATE, rank, window, targetOffset, source, sourceOffset, length, immediate, slot);
    }

    private void post(
            Opcode opcode,
            int rank,
            RmaWindow window,
            long targetOffset,
            MemoryRegion source,
            long sourceOffset,
            int length,
            int immediate,
            int slot) {
        throwIfFailed();
        if (pending[slot]) {
            throw new IllegalStateException("request slot " + slot + " is still pending");
        }
        puts++;
        bytesPut += length;
        if (rank == group.rank()) {
            MemorySegment.copy(source.segment(), sourceOffset, window.region().segment(), targetOffset, length);
            return;
        }
        if (outstandingByRank[rank] >= sendQueueDepth) {
            long deadline = group.deadline();
            while (outstandingByRank[rank] >= sendQueueDepth) {
                progress(deadline, "a free send queue entry"); // constant: no allocation per wait
            }
        }
        request.clear()
                .requestId(slot)
                .opcode(opcode)
                .local(source, sourceOffset, length)
                .remote(window.key(rank), targetOffset)
                .immediate(immediate);
        queuePairs[rank].postSend(request);
        BandwidthCap cap = group.cap();
        if (cap != null) {
            long sentAt = cap.reserve(length);
            sentAtNanos[slot] = sentAt;
            lastSentAtNanos = sentAt - lastSentAtNanos > 0 ? sentAt : lastSentAtNanos;
        }
        pending[slot] = true;
        slotRank[slot] = rank;
        outstandingByRank[rank]++;
        outstanding++;
    }

    /** Whether slot {@code slot}'s put has completed (polls the completion queue once; never blocks). */
    public boolean isComplete(int slot) {
        if (pending[slot]) {
            poll();
        }
        return !pending[slot] && (group.cap() == null || System.nanoTime() - sentAtNanos[slot] >= 0);
    }

    /** Waits until slot {@code slot}'s put has completed (at once when it is not pending). */
    public void await(int slot) {
        if (!pending[slot]) {
            awaitLink(sentAtNanos[slot]);
            return;
        }
        long deadline = group.deadline();
        while (pending[slot]) {
            progress(deadline, "the completion of a put");
        }
        awaitLink(sentAtNanos[slot]);
    }

    /** With a bandwidth cap, waits until the emulated link has sent what was booked until {@code sentAtNanos}. */
    private void awaitLink(long sentAtNanos) {
        if (group.cap() == null) {
            return;
        }
        while (System.nanoTime() - sentAtNanos < 0) {
            Thread.onSpinWait();
        }
    }

    /** Waits until every put of this lane has completed. */
    public void flush() {
        if (outstanding == 0) {
            throwIfFailed();
            awaitLink(lastSentAtNanos);
            return;
        }
        long deadline = group.deadline();
        while (outstanding > 0) {
            progress(deadline, "the completion of every put (flush)");
        }
        awaitLink(lastSentAtNanos);
    }

    /** Puts posted and not yet completed. */
    public int outstanding() {
        return outstanding;
    }

    /**
     * The next notification that arrived at this lane, as {@code (rank << 32) | (immediate & 0xFFFFFFFFL)}, or -1
     * when none is waiting. Polls the completion queue once when none is buffered.
     */
    public long pollNotification() {
        if (notificationsIn == notificationsOut) {
            poll();
            if (notificationsIn == notificationsOut) {
                return -1;
            }
        }
        int at = (int) (notificationsOut++ & (notificationRanks.length - 1));
        return (long) notificationRanks[at] << 32 | (notificationImmediates[at] & 0xFFFFFFFFL);
    }

    /** Waits for the next notification; see {@link #pollNotification()}. */
    public long awaitNotification() {
        long deadline = group.deadline();
        long next;
        while ((next = pollNotification()) < 0) {
            if (receiveFailed) {
                throw new FaroException(
                        FaroException.Category.NETWORK,
                        "rank " + group.rank() + ": a peer closed or died while this rank waited for a notified put");
            }
            progress(deadline, "a notified put");
        }
        return next;
    }

    /** Puts posted by this lane since it opened (at this rank included). */
    public long puts() {
        return puts;
    }

    /** Bytes put by this lane since it opened. */
    public long bytesPut() {
        return bytesPut;
    }

    /** Polls completions once; returns how many were taken. */
    int poll() {
        throwIfFailed();
        int count = completionQueue.poll(completions);
        for (int i = 0; i < count; i++) {
            WorkCompletion completion = completions[i];
            long id = completion.requestId();
            boolean success = completion.status().isSuccess();
            if (completion.opcode() == Opcode.RECEIVE_WRITE_WITH_IMMEDIATE || completion.opcode() == Opcode.RECEIVE) {
                if (success) {
                    int rank = (int) id; // postReceive names each receive by its peer rank
                    if (notificationsIn - notificationsOut == notificationRanks.length) {
                        // The receive is reposted as soon as it is polled, so the posted receives do not bound the
                        // notifications waiting here: fail loudly rather than overwrite the oldest.
                        overflow(rank);
                        continue;
                    }
                    int at = (int) (notificationsIn++ & (notificationRanks.length - 1));
                    notificationRanks[at] = rank;
                    notificationImmediates[at] = completion.immediate();
                    postReceive(rank);
                } else {
                    // The peer closed or died and its queue pair flushed our posted receives. That fails only a
                    // wait for a notification; puts to the peer fail through their own completions.
                    receiveFailed = true;
                }
                continue;
            }
            if (!success && !lenient) {
                fail(completion);
            }
            if (id >= PROBE_REQUEST_BASE) {
                probing[(int) (id - PROBE_REQUEST_BASE)] = false;
            } else {
                int slot = (int) id;
                pending[slot] = false;
                outstandingByRank[slotRank[slot]]--;
                outstanding--;
            }
        }
        throwIfFailed();
        return count;
    }

    /**
     * Waits until every put of this lane has completed, successfully or not, ignoring failures: for the last round
     * of a group, whose peers may close as soon as they have seen this rank's bytes, before the fabric acknowledged
     * them here.
     */
    void drainLeniently() {
        lenient = true;
        long deadline = group.deadline();
        while (outstanding > 0) {
            progress(deadline, "the completion of the last round's puts");
        }
    }

    /**
     * One step of a bounded wait: polls, and when nothing came, checks the deadline and the group's cancellation,
     * then spins or yields.
     */
    void progress(long deadlineNanos, String what) {
        if (poll() > 0) {
            return;
        }
        group.checkWait(deadlineNanos, what);
        Thread.onSpinWait();
    }

    /**
     * Reads 8 bytes of {@code rank}'s collective region unless a probe is already under way: a dead peer turns the
     * probe into an error completion (and so a {@code NETWORK} failure of this lane) after the fabric's peer timeout.
     */
    void probe(int rank, RmaWindow anyWindowOfPeer) {
        if (rank == group.rank() || probing[rank]) {
            return;
        }
        request.clear()
                .requestId(PROBE_REQUEST_BASE + rank)
                .opcode(Opcode.READ)
                .local(scratch, 0, 8)
                .remote(anyWindowOfPeer.key(rank), 0);
        queuePairs[rank].postSend(request);
        probing[rank] = true;
    }

    /**
     * Posts one receive on {@code rank}'s queue pair. Its request id is the rank, so a notification's completion names
     * its writer without a search over the queue pairs.
     */
    void postReceive(int rank) {
        queuePairs[rank].postReceive(rank, scratch, 8, 8);
    }

    private void fail(WorkCompletion completion) {
        if (failure == null) {
            long id = completion.requestId();
            // Only sends and probes fail a lane: poll() handles receive completions before it gets here.
            int rank = id >= PROBE_REQUEST_BASE ? (int) (id - PROBE_REQUEST_BASE) : slotRank[(int) id];
            failure = new FaroException(
                    FaroException.Category.NETWORK,
                    "rank " + group.rank() + ": " + completion.opcode() + " with rank " + rank + " failed ("
                            + completion.status() + "): rank " + rank + " died or closed");
        }
    }

    private void overflow(int rank) {
        if (failure == null) {
            failure = new FaroException(
                    FaroException.Category.QUEUE_FULL,
                    "rank " + group.rank() + ": a notified put from rank " + rank + " found "
                            + notificationRanks.length + " notifications not yet taken (pollNotification); "
                            + "take them, or raise notificationDepth");
        }
    }

    private void throwIfFailed() {
        if (failure != null) {
            throw failure;
        }
    }

    void closeQueuePairs() {
        for (RcQueuePair queuePair : queuePairs) {
            if (queuePair != null) {
                queuePair.close();
            }
        }
    }

    void closeCompletionQueue() {
        completionQueue.close();
    }
}
