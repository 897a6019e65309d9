package dev.faro.fabric.net;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.spi.CompletionQueueBudget;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.spi.CompletionWaiters;
import dev.faro.fabric.spi.FabricChecks;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkCompletion;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A completion queue of the {@code net} fabric: a many-producer, one-consumer ring in the heap. Producers are the
 * node's progress thread (almost every completion) and application threads posting receives on a queue pair in
 * ERROR (their FLUSHED completions); pollers are serialized by a lock, so any thread may poll.
 *
 * <pre>
 *  entry i (slot = i &amp; (capacity - 1)), parallel arrays:
 *   requestId | sourceNode | postSequence | byteLength | immediate | qpn | sourceQpn | opcode | status | flags
 *   | owner (the queue pair of a send-queue entry) | published
 *  tail:  claimed by producers with CAS (only while tail - head &lt; capacity)
 *  entry: plain stores, then published[slot] := i + 1 with release
 *  head:  the consumer's next index; it reads published[slot] with acquire, and head advances with release
 * </pre>
 * Event mode: a waiter polls for {@link #SPIN_BEFORE_WAIT_NS} ns, then registers in {@link #waiters} and parks; a
 * producer that sees a waiter after publishing (a full fence orders the two) unparks it without taking a lock, so the
 * progress thread never waits for an application thread ({@link CompletionWaiters}). The progress thread looks for
 * waiters once per turn rather than once per completion (as a NIC moderates its interrupts, but without a timer): the
 * receive completions of every message one read placed cost the waiter one wake-up. Busy polling never registers.
 *
 * <p>Data path: {@link #offer} and {@link #poll} are allocation-free.
 */
final class NetCompletionQueue implements CompletionQueue {

    private static final VarHandle PUBLISHED = MethodHandles.arrayElementVarHandle(long[].class);
    private static final byte FLAG_IMMEDIATE = 1;
    /**
     * How long {@link #await} polls before it blocks: long enough to bridge the gap between two completions of a
     * stream (so a stream does not pay a wake-up per completion), short enough to leave the CPU to the progress
     * thread soon when nothing comes.
     */
    private static final long SPIN_BEFORE_WAIT_NS = 20_000;

    final NetFabric fabric;
    final int id;
    private final int capacity;
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
    private final NetQueuePair[] owners;
    private final long[] published;

    private final AtomicLong tail = new AtomicLong();
    /** The consumer's next index; written by the poller holding {@link #pollLock}. */
    private volatile long head;
    private volatile boolean overrun;

    private final ReentrantLock pollLock = new ReentrantLock();
    private final CompletionWaiters waiters = new CompletionWaiters();
    private final CompletionQueueBudget budget;

    private volatile boolean closed;

    /** The progress thread published in this turn and owes the waiters a wake-up. Progress thread only. */
    boolean wakeDeferred;

    NetCompletionQueue(NetFabric fabric, int id, int capacity) {
        this.fabric = fabric;
        this.id = id;
        this.capacity = capacity;
        this.budget = new CompletionQueueBudget(id, capacity);
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
        owners = new NetQueuePair[ring];
        published = new long[ring];
    }

    /** Reserves room for a queue pair's requests; refuses a queue pair the queue cannot hold. */
    void attach(int slots, String role) {
        if (closed) {
            throw FabricChecks.completionQueueClosed(id);
        }
        budget.attach(slots, role);
    }

    void detach(int slots) {
        budget.detach(slots);
    }

    /**
     * Appends a completion; {@code owner} is the queue pair whose send queue it retires up to {@code postSequence}
     * (null for receives). Sets the overrun flag and drops the completion when the ring is full (the caller sized
     * the queue too small; {@link #poll} then throws). Data path: lock-free, allocation-free; any thread.
     */
    void offer(long requestId, CompletionStatus status, Opcode opcode, int byteLength, int immediate,
            boolean hasImmediate, NetQueuePair owner, long postSequence, int qpn, long sourceNode, int sourceQpn) {
        if (closed) {
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
        if (fabric.deferWake(this)) {
            return; // the progress thread wakes the waiters once, at the end of its turn (wakeWaiters)
        }
        wakeWaiters();
    }

    /**
     * Wakes the threads waiting in {@link #await}: after {@link #offer}, at once on an application thread, and at the
     * end of its turn on the progress thread ({@link ProgressAgent}), so a turn that places several messages costs a
     * waiter one wake-up, not one per completion. Any thread; never blocks.
     */
    void wakeWaiters() {
        VarHandle.fullFence(); // publish before reading waiters; the waiter registers before polling
        waiters.wakeAll();
    }

    @Override
    public int poll(WorkCompletion[] completions) {
        return poll(completions, completions.length);
    }

    @Override
    public int poll(WorkCompletion[] completions, int max) {
        int limit = Math.min(max, completions.length);
        pollLock.lock();
        try {
            if (closed) {
                throw FabricChecks.completionQueueClosed(id);
            }
            long index = head;
            int count = 0;
            while (count < limit) {
                int slot = (int) index & mask;
                if ((long) PUBLISHED.getAcquire(published, slot) != index + 1) {
                    break;
                }
                WorkCompletion completion = completions[count++];
                completion.set(requestIds[slot], CompletionStatus.fromOrdinal(statuses[slot]),
                        Opcode.fromOrdinal(opcodes[slot]), byteLengths[slot], immediates[slot],
                        (flags[slot] & FLAG_IMMEDIATE) != 0, queuePairNumbers[slot], sourceNodes[slot],
                        sourceQueuePairNumbers[slot]);
                NetQueuePair owner = owners[slot];
                if (owner != null) {
                    owners[slot] = null;
                    owner.retire(postSequences[slot]);
                }
                index++;
            }
            if (count > 0) {
                head = index;
            } else if (overrun) {
                throw new FaroException(FaroException.Category.QUEUE_FULL, "completion queue " + id
                        + " overran: more completions arrived than its capacity " + capacity
                        + "; size it for every receive and send that can be outstanding");
            }
            return count;
        } finally {
            pollLock.unlock();
        }
    }

    @Override
    public int await(WorkCompletion[] completions, long timeout, TimeUnit unit) {
        return waiters.await(this, completions, timeout, unit, SPIN_BEFORE_WAIT_NS);
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        VarHandle.fullFence();
        waiters.wakeAll();
        fabric.forget(this);
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public String toString() {
        return "NetCompletionQueue[id=" + id + ", capacity=" + capacity + "]";
    }
}
