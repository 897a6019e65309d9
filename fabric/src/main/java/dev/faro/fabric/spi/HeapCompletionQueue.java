package dev.faro.fabric.spi;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkCompletion;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A completion queue in the heap, for providers whose progress thread publishes completions (net, ucx): a
 * many-producer, one-consumer ring. Producers are the node's progress thread (almost every completion) and
 * application threads posting receives on a queue pair in ERROR (their FLUSHED completions); pollers are serialized by
 * a lock, so any thread may poll. A send-queue entry names its queue pair's {@link SendQueue} and post sequence, so
 * polling it frees that send queue's entries up to there (an unsignaled request keeps its entry until a later
 * completion is polled).
 *
 * <pre>
 *  entry i (slot = i &amp; (ring - 1), ring = capacity rounded up to a power of two), parallel arrays:
 *   requestId | sourceNode | postSequence | byteLength | immediate | qpn | sourceQpn | opcode | status | flags
 *   | owner (the send queue of a send-queue entry) | published
 *  tail:  claimed by producers with CAS (only while tail - head &lt; ring)
 *  entry: plain stores, then published[slot] := i + 1 with release
 *  head:  the consumer's next index; it reads published[slot] with acquire, and head advances (volatile)
 * </pre>
 * A poll that finds the head entry unpublished returns 0 without the lock, so busy polling an empty queue costs two
 * volatile reads.
 * Event mode: a waiter polls for {@link #SPIN_BEFORE_WAIT_NS} ns, then registers in {@link #waiters} and parks; a
 * producer that sees a waiter after publishing (a full fence orders the two) unparks it without taking a lock, so the
 * progress thread never waits for an application thread ({@link CompletionWaiters}). Close fences the same way, so a
 * waiter that registered before it is woken and finds the queue closed. A provider may let its progress thread look
 * for waiters once per turn rather than once per completion ({@link #deferWake()}). Busy polling never registers.
 *
 * <p>Data path: {@link #offer} and {@link #poll} are allocation-free; {@link #offer} is lock-free.
 */
public abstract class HeapCompletionQueue extends AbstractCompletionQueue {

    private static final VarHandle PUBLISHED = MethodHandles.arrayElementVarHandle(long[].class);
    private static final byte FLAG_IMMEDIATE = 1;
    /**
     * How long {@link #await} polls before it blocks: long enough to bridge the gap between two completions of a
     * stream (so a stream does not pay a wake-up per completion), short enough to leave the CPU to the progress
     * thread soon when nothing comes.
     */
    private static final long SPIN_BEFORE_WAIT_NS = 20_000;

    private final int mask;
    private final long[] requestIds;
    private final long[] sourceNodes;
    private final long[] postSequences;
    private final int[] byteLengths;
    private final int[] immediates;
    private final int[] queuePairNumbers;
    private final int[] sourceQueuePairNumbers;
    private final byte[] opcodes;
    private final byte[] statuses;
    private final byte[] flags;
    private final SendQueue<?, ?>[] owners;
    private final long[] published;

    private final AtomicLong tail = new AtomicLong();
    /** The consumer's next index; written by the poller holding {@link #pollLock}. */
    private volatile long head;

    private volatile boolean overrun;

    private final ReentrantLock pollLock = new ReentrantLock();
    private final CompletionWaiters waiters = new CompletionWaiters();

    /** A queue of {@code fabric} holding up to {@code capacity} completions. */
    protected HeapCompletionQueue(AbstractFabric<?, ?> fabric, int id, int capacity) {
        super(fabric, id, capacity);
        int ring = Integer.highestOneBit(Math.max(1, capacity - 1)) << 1;
        this.mask = ring - 1;
        requestIds = new long[ring];
        sourceNodes = new long[ring];
        postSequences = new long[ring];
        byteLengths = new int[ring];
        immediates = new int[ring];
        queuePairNumbers = new int[ring];
        sourceQueuePairNumbers = new int[ring];
        opcodes = new byte[ring];
        statuses = new byte[ring];
        flags = new byte[ring];
        owners = new SendQueue<?, ?>[ring];
        published = new long[ring];
    }

    /**
     * Appends a completion; {@code owner} is the send queue it retires up to {@code postSequence} (null for
     * receives). Sets the overrun flag and drops the completion when the ring is full (the caller sized the queue too
     * small; {@link #poll} then throws); drops it silently once the queue is closed. Data path: lock-free,
     * allocation-free; any thread.
     */
    public final void offer(
            long requestId,
            CompletionStatus status,
            Opcode opcode,
            int byteLength,
            int immediate,
            boolean hasImmediate,
            SendQueue<?, ?> owner,
            long postSequence,
            int qpn,
            long sourceNode,
            int sourceQpn) {
        if (isClosed()) {
            return;
        }
        long index;
        while (true) {
            index = tail.get();
            if (index - head >= mask + 1) {
                overrun = true;
                return;
            }
            if (tail.compareAndSet(index, index + 1)) {
                break;
            }
            Thread.onSpinWait();
        }
        int slot = (int) index & mask;
        requestIds[slot] = requestId;
        sourceNodes[slot] = sourceNode;
        postSequences[slot] = postSequence;
        byteLengths[slot] = byteLength;
        immediates[slot] = immediate;
        queuePairNumbers[slot] = qpn;
        sourceQueuePairNumbers[slot] = sourceQpn;
        opcodes[slot] = (byte) opcode.ordinal();
        statuses[slot] = (byte) status.ordinal();
        flags[slot] = hasImmediate ? FLAG_IMMEDIATE : 0;
        owners[slot] = owner;
        PUBLISHED.setRelease(published, slot, index + 1);
        if (deferWake()) {
            return; // the provider's progress thread calls wakeWaiters once, at the end of its turn
        }
        wakeWaiters();
    }

    /**
     * Whether the caller of {@link #offer} will call {@link #wakeWaiters()} itself later (a progress thread that wakes
     * waiters once per turn); false, the default, wakes them at once. Called on the data path; never blocks.
     */
    protected boolean deferWake() {
        return false;
    }

    /**
     * Wakes the threads waiting in {@link #await}: after {@link #offer}, at once or (see {@link #deferWake()}) at the
     * end of a progress turn. Any thread; never blocks.
     */
    public final void wakeWaiters() {
        VarHandle.fullFence(); // publish before reading waiters; the waiter registers before polling
        waiters.wakeAll();
    }

    @Override
    public final int poll(WorkCompletion[] completions) {
        return poll(completions, completions.length);
    }

    @Override
    public final int poll(WorkCompletion[] completions, int max) {
        checkNotClosed();
        long next = head;
        if ((long) PUBLISHED.getAcquire(published, (int) next & mask) != next + 1 && !overrun) {
            return 0; // nothing published: no lock (racy with another poller, which then takes what comes)
        }
        int limit = Math.min(max, completions.length);
        pollLock.lock();
        try {
            checkNotClosed();
            long index = head;
            int count = 0;
            while (count < limit) {
                int slot = (int) index & mask;
                if ((long) PUBLISHED.getAcquire(published, slot) != index + 1) {
                    break;
                }
                WorkCompletion completion = completions[count++];
                completion.set(
                        requestIds[slot],
                        CompletionStatus.fromOrdinal(statuses[slot]),
                        Opcode.fromOrdinal(opcodes[slot]),
                        byteLengths[slot],
                        immediates[slot],
                        (flags[slot] & FLAG_IMMEDIATE) != 0,
                        queuePairNumbers[slot],
                        sourceNodes[slot],
                        sourceQueuePairNumbers[slot]);
                SendQueue<?, ?> owner = owners[slot];
                if (owner != null) {
                    owners[slot] = null;
                    owner.retire(postSequences[slot]);
                }
                index++;
            }
            if (count > 0) {
                head = index;
            } else if (overrun) {
                throw overrun();
            }
            return count;
        } finally {
            pollLock.unlock();
        }
    }

    @Override
    public final int await(WorkCompletion[] completions, long timeout, TimeUnit unit) {
        return waiters.await(this, completions, timeout, unit, SPIN_BEFORE_WAIT_NS);
    }

    /** Wakes the waiters after the closed flag is set (fenced like a publication), so none sleeps on. */
    @Override
    protected final void onClose() {
        wakeWaiters();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[id=" + id() + ", capacity=" + capacity() + "]";
    }
}
