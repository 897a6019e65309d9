package dev.faro.fabric.ucx;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.spi.CompletionQueueBudget;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.spi.CompletionWaiters;
import dev.faro.fabric.spi.FabricChecks;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkCompletion;
import java.util.concurrent.TimeUnit;

/**
 * A completion queue of the {@code ucx} fabric: a ring in the heap guarded by its monitor. Producers are the node's
 * progress thread (almost every completion) and application threads posting receives on a queue pair in ERROR;
 * pollers may be any thread. A send-queue entry names its queue pair and post sequence, so polling it frees that
 * queue pair's send slots up to there (an unsignaled request keeps its slot until a later completion is polled).
 *
 * <p>Data path: {@link #offer} and {@link #poll} are allocation-free. The monitor is uncontended but for the moments
 * a poller and the progress thread meet; {@link #await} spins briefly, then parks until the progress thread unparks it
 * ({@link CompletionWaiters}: the progress thread never waits for a waiter).
 */
final class UcxCompletionQueue implements CompletionQueue {

    private static final byte FLAG_IMMEDIATE = 1;
    private static final long SPIN_BEFORE_WAIT_NS = 20_000;

    final UcxFabric fabric;
    final int id;
    private final int capacity;
    private final int ringSize;
    private final CompletionQueueBudget budget;

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
    private final UcxRcQueuePair[] owners;

    // Guarded by this.
    private volatile long head;
    private long tail;
    private boolean overrun;
    private volatile boolean closed;
    private final CompletionWaiters waiters = new CompletionWaiters();
    /** Approximate, for pollers' fast path: tail as last published. */
    private volatile long publishedTail;

    UcxCompletionQueue(UcxFabric fabric, int id, int capacity) {
        this.fabric = fabric;
        this.id = id;
        this.capacity = capacity;
        this.budget = new CompletionQueueBudget(id, capacity);
        this.ringSize = capacity;
        requestIds = new long[ringSize];
        sourceNodes = new long[ringSize];
        postSequences = new long[ringSize];
        byteLengths = new int[ringSize];
        immediates = new int[ringSize];
        queuePairNumbers = new int[ringSize];
        sourceQueuePairNumbers = new int[ringSize];
        opcodes = new byte[ringSize];
        statuses = new byte[ringSize];
        flags = new byte[ringSize];
        owners = new UcxRcQueuePair[ringSize];
    }

    void attach(int slots, String role) {
        if (closed) {
            throw FabricChecks.completionQueueClosed(id);
        }
        budget.attach(slots, role);
    }

    void detach(int slots) {
        budget.detach(slots);
    }

    /** Appends a completion; on overrun it is dropped and the next empty poll throws. Any thread. */
    synchronized void offer(long requestId, CompletionStatus status, Opcode opcode, int byteLength, int immediate,
            boolean hasImmediate, UcxRcQueuePair owner, long postSequence, int qpn, long sourceNode, int sourceQpn) {
        if (closed) {
            return;
        }
        if (tail - head >= ringSize) {
            overrun = true;
            return;
        }
        int slot = (int) (tail % ringSize);
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
        tail++;
        publishedTail = tail; // volatile write, then the volatile read of the waiters: Dekker with their poll
        waiters.wakeAll();
    }

    @Override
    public int poll(WorkCompletion[] completions) {
        return poll(completions, completions.length);
    }

    @Override
    public int poll(WorkCompletion[] completions, int max) {
        if (closed) {
            throw FabricChecks.completionQueueClosed(id);
        }
        if (publishedTail == head && !overrun) {
            return 0; // racy fast path: a completion published now is seen by the next poll
        }
        synchronized (this) {
            return pollLocked(completions, Math.min(max, completions.length));
        }
    }

    private int pollLocked(WorkCompletion[] completions, int limit) {
        if (closed) {
            throw FabricChecks.completionQueueClosed(id);
        }
        int count = 0;
        while (count < limit && head < tail) {
            int slot = (int) (head % ringSize);
            completions[count++].set(requestIds[slot], CompletionStatus.fromOrdinal(statuses[slot]),
                    Opcode.fromOrdinal(opcodes[slot]), byteLengths[slot], immediates[slot],
                    (flags[slot] & FLAG_IMMEDIATE) != 0, queuePairNumbers[slot], sourceNodes[slot],
                    sourceQueuePairNumbers[slot]);
            UcxRcQueuePair owner = owners[slot];
            if (owner != null) {
                owners[slot] = null;
                owner.retire(postSequences[slot]);
            }
            head++;
        }
        if (count == 0 && overrun) {
            throw new FaroException(FaroException.Category.QUEUE_FULL, "completion queue " + id
                    + " overran: more completions arrived than its capacity " + capacity
                    + "; size it for every receive and send that can be outstanding");
        }
        return count;
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
        waiters.wakeAll();
        fabric.forget(this);
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public String toString() {
        return "UcxCompletionQueue[id=" + id + ", capacity=" + capacity + "]";
    }
}
