package dev.faro.txn.lock;

import java.util.Arrays;

/**
 * The waiting groups of one lock table (ETH19 Fig. 5.2) and its pending-locks list (Fig. 5.3): per lock a FIFO queue
 * of timestamped requests, linked through per-agent slots (an agent has at most one request outstanding, so its slot
 * is its queue node); and the locks that have waiters, an intrusive doubly linked list that the bounded-wait check
 * walks (a lock joins with its first waiter and leaves when its queue empties).
 *
 * <p>Data path: the table's thread only; allocation-free.
 */
final class WaitingGroups {

    static final int NONE = -1;

    // Per lock: the queue's ends, and the pending-locks list.
    private final int[] head;
    private final int[] tail;
    private final int[] pendingNext;
    private final int[] pendingPrevious;
    private final boolean[] pending;
    private int pendingHead = NONE;

    // Per agent: its waiting request.
    private final int[] lock;
    private final int[] mode;
    private final int[] next;
    private final long[] sinceNs;
    private final long[] transaction;
    private final long[] priority;

    WaitingGroups(int locks, int agents) {
        head = filled(locks);
        tail = filled(locks);
        pendingNext = filled(locks);
        pendingPrevious = filled(locks);
        pending = new boolean[locks];
        lock = filled(agents);
        mode = new int[agents];
        next = filled(agents);
        sinceNs = new long[agents];
        transaction = new long[agents];
        priority = new long[agents];
    }

    private static int[] filled(int length) {
        int[] array = new int[length];
        Arrays.fill(array, NONE);
        return array;
    }

    /** Queues {@code agent}'s request at the tail of {@code lockIndex}'s waiting group. */
    void enqueue(int agent, int lockIndex, int modeCode, long transactionId, long transactionPriority, long nowNs) {
        lock[agent] = lockIndex;
        mode[agent] = modeCode;
        sinceNs[agent] = nowNs;
        transaction[agent] = transactionId;
        priority[agent] = transactionPriority;
        next[agent] = NONE;
        if (tail[lockIndex] == NONE) {
            head[lockIndex] = agent;
        } else {
            next[tail[lockIndex]] = agent;
        }
        tail[lockIndex] = agent;
        if (!pending[lockIndex]) {
            pending[lockIndex] = true;
            pendingPrevious[lockIndex] = NONE;
            pendingNext[lockIndex] = pendingHead;
            if (pendingHead != NONE) {
                pendingPrevious[pendingHead] = lockIndex;
            }
            pendingHead = lockIndex;
        }
    }

    /** Removes {@code agent}'s waiting request from its queue (the request's fields stay readable). */
    void unlink(int agent) {
        int lockIndex = lock[agent];
        int previous = NONE;
        for (int waiter = head[lockIndex]; waiter != agent; waiter = next[waiter]) {
            previous = waiter;
        }
        if (previous == NONE) {
            head[lockIndex] = next[agent];
        } else {
            next[previous] = next[agent];
        }
        if (tail[lockIndex] == agent) {
            tail[lockIndex] = previous;
        }
        next[agent] = NONE;
        lock[agent] = NONE;
        if (head[lockIndex] == NONE && pending[lockIndex]) {
            pending[lockIndex] = false;
            int before = pendingPrevious[lockIndex];
            int after = pendingNext[lockIndex];
            if (before == NONE) {
                pendingHead = after;
            } else {
                pendingNext[before] = after;
            }
            if (after != NONE) {
                pendingPrevious[after] = before;
            }
        }
    }

    /** The agent at the head of {@code lockIndex}'s queue, or {@link #NONE}. */
    int head(int lockIndex) {
        return head[lockIndex];
    }

    /** The agent queued after {@code agent}, or {@link #NONE}. */
    int next(int agent) {
        return next[agent];
    }

    boolean isWaiting(int agent) {
        return lock[agent] != NONE;
    }

    /** The lock {@code agent} waits for, or {@link #NONE}. */
    int lockOf(int agent) {
        return lock[agent];
    }

    int mode(int agent) {
        return mode[agent];
    }

    long sinceNs(int agent) {
        return sinceNs[agent];
    }

    long transaction(int agent) {
        return transaction[agent];
    }

    long priority(int agent) {
        return priority[agent];
    }

    /** The first lock of the pending-locks list, or {@link #NONE}. */
    int firstPending() {
        return pendingHead;
    }

    /** The pending lock after {@code lockIndex}; read it before the queue of {@code lockIndex} may empty. */
    int nextPending(int lockIndex) {
        return pendingNext[lockIndex];
    }

    boolean hasWaiters() {
        return pendingHead != NONE;
    }
}
