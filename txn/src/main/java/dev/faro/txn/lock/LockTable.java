package dev.faro.txn.lock;

import java.util.Arrays;

/**
 * One lock server's section of the lock table (ETH19 Figs. 5.2 and 5.3): a contiguous range of lock ids, and for each
 * lock the granted group (one counter per {@link LockMode}, from which the group mode follows) and the waiting group (a
 * FIFO queue of timestamped requests); the transaction table (the locks each transaction holds, so one end-of-
 * transaction releases all of them: strict 2PL); and the pending-locks list (locks with waiters, walked by
 * {@link #expire} for the bounded-wait deadlock handling).
 *
 * <p>Requests come from transaction agents, numbered densely from 0; each agent runs one transaction at a time and has
 * at most one request outstanding, so the waiting request of an agent is a slot of per-agent arrays and the
 * transaction table is indexed by agent (the transaction id it holds locks for is kept beside). A request of a lock the
 * transaction already holds in a covering mode is granted at once; a stronger one is a conversion, checked against the
 * other holders only.
 *
 * <p>A request is granted at once when the lock's queue is empty and its mode is compatible with the granted group;
 * otherwise what happens depends on the {@link DeadlockPolicy}. Granting follows queue order: after a release, heads
 * are granted while they are compatible.
 *
 * <p>Data path: single-threaded (the owning server's thread), allocation-free once the pool of held-lock entries has
 * grown to the workload's peak (it doubles when full).
 */
public final class LockTable {

    /** {@link #request} granted the lock. */
    public static final int GRANTED = 0;

    /** {@link #request} queued the request; its outcome comes later through the {@link GrantSink}. */
    public static final int QUEUED = 1;

    /** {@link #request} refused the request at once (NO_WAIT, or WAIT_DIE's "die"). */
    public static final int DENIED = 2;

    private static final int NONE = -1;

    private final long firstLockId;
    private final int lockCount;
    private final int agents;
    private final DeadlockPolicy policy;
    private final long timeoutNs;
    private final GrantSink sink;

    // Per lock: the granted group.
    private final int[] grantedCounts;
    private final int[] grantedModes;
    private final int[] holderHead;

    // The waiting groups and the pending-locks list.
    private final WaitingGroups waits;

    // Per agent: the transaction table.
    private final long[] agentTransaction;
    private final long[] agentPriority;
    private final int[] heldHead;
    private final int[] heldCount;

    // Held-lock entries: in their transaction's list and in their lock's holder list.
    private int[] entryLock;
    private int[] entryMode;
    private int[] entryAgent;
    private int[] entryNextInTransaction;
    private int[] entryNextInLock;
    private int[] entryPrevInLock;
    private int freeEntry = NONE;

    private long grants;
    private long denials;
    private long timeouts;
    private long implicitReleases;

    /**
     * An empty table.
     *
     * @param firstLockId the first lock id of this server's range
     * @param lockCount the number of locks in the range
     * @param agents the number of transaction agents that may send requests (ids 0 to agents - 1)
     * @param policy what to do with requests that cannot be granted at once
     * @param timeoutNs how long a queue head may wait before it is refused (all policies)
     * @param sink where outcomes of queued requests go
     */
    public LockTable(
            long firstLockId, int lockCount, int agents, DeadlockPolicy policy, long timeoutNs, GrantSink sink) {
        if (lockCount <= 0 || agents <= 0 || timeoutNs <= 0) {
            throw new IllegalArgumentException("lockCount=" + lockCount + ", agents=" + agents + ", timeoutNs="
                    + timeoutNs + ": all must be positive");
        }
        this.firstLockId = firstLockId;
        this.lockCount = lockCount;
        this.agents = agents;
        this.policy = java.util.Objects.requireNonNull(policy, "policy is null");
        this.timeoutNs = timeoutNs;
        this.sink = java.util.Objects.requireNonNull(sink, "sink is null");
        grantedCounts = new int[lockCount * LockMode.COUNT];
        grantedModes = new int[lockCount];
        holderHead = filled(lockCount);
        waits = new WaitingGroups(lockCount, agents);
        agentTransaction = new long[agents];
        agentPriority = new long[agents];
        heldHead = filled(agents);
        heldCount = new int[agents];
        growEntries(Math.max(64, agents * 16));
    }

    private static int[] filled(int length) {
        int[] array = new int[length];
        Arrays.fill(array, NONE);
        return array;
    }

    /** The first lock id of this table's range. */
    public long firstLockId() {
        return firstLockId;
    }

    public int lockCount() {
        return lockCount;
    }

    public DeadlockPolicy policy() {
        return policy;
    }

    /**
     * Handles a lock request of {@code agent}'s transaction.
     *
     * @param priority the transaction's age for WAIT_DIE (smaller is older; ignored by the other policies)
     * @param nowNs the request's arrival time, its timestamp in the queue
     * @return {@link #GRANTED}, {@link #QUEUED} or {@link #DENIED}
     * @throws IllegalArgumentException if the lock id is not in this table's range or the agent is unknown (a bug of
     *     the caller), or the agent already has a request waiting
     */
    public int request(int agent, long transactionId, long priority, long lockId, LockMode mode, long nowNs) {
        int lock = index(lockId);
        checkAgent(agent);
        if (waits.isWaiting(agent)) {
            throw new IllegalArgumentException("agent " + agent + " already waits for lock "
                    + (firstLockId + waits.lockOf(agent)) + " and asked for " + lockId);
        }
        beginTransaction(agent, transactionId, priority);
        boolean queueEmpty = waits.head(lock) == NONE;
        if (queueEmpty) {
            int held = heldMode(agent, lock);
            if (held != NONE && LockMode.ofCode(held).covers(mode)) {
                grants++;
                return GRANTED;
            }
            if (mode.compatibleWithGranted(grantedModes[lock])
                    || (held != NONE && mode.compatibleWithGranted(othersModes(agent, lock)))) {
                grant(agent, lock, mode.ordinal());
                return GRANTED;
            }
        }
        if (policy == DeadlockPolicy.NO_WAIT || (policy == DeadlockPolicy.WAIT_DIE && !olderThanAll(agent, lock))) {
            denials++;
            return DENIED;
        }
        waits.enqueue(agent, lock, mode.ordinal(), transactionId, priority, nowNs);
        return QUEUED;
    }

    /**
     * Ends {@code agent}'s transaction here (commit or abort alike): releases every lock it holds, drops a request of
     * it that still waits, and grants the queue heads that became compatible (through the sink). A transaction id that
     * is not the agent's current one releases nothing.
     *
     * @return the number of held-lock entries released
     */
    public int release(int agent, long transactionId, long nowNs) {
        checkAgent(agent);
        if (agentTransaction[agent] != transactionId || transactionId == 0) {
            return 0;
        }
        return releaseAll(agent, nowNs);
    }

    /**
     * Ends whatever transaction {@code agent} holds locks for, as {@link #release} does: for an agent that is gone
     * (its process died) or moved on.
     *
     * @return the number of held-lock entries released
     */
    public int abandon(int agent, long nowNs) {
        checkAgent(agent);
        return agentTransaction[agent] == 0 ? 0 : releaseAll(agent, nowNs);
    }

    /**
     * The bounded-wait deadlock check: walks the pending-locks list and refuses (through the sink) every queue head
     * that has waited longer than the timeout, then grants the heads behind it that became compatible.
     *
     * @return the number of requests refused
     */
    public int expire(long nowNs) {
        int refused = 0;
        int lock = waits.firstPending();
        while (lock != NONE) {
            int next = waits.nextPending(lock);
            int head = waits.head(lock);
            while (head != NONE && nowNs - waits.sinceNs(head) > timeoutNs) {
                waits.unlink(head);
                timeouts++;
                refused++;
                sink.onDenied(
                        head,
                        waits.transaction(head),
                        firstLockId + lock,
                        LockMode.ofCode(waits.mode(head)),
                        nowNs - waits.sinceNs(head));
                head = waits.head(lock);
            }
            grantWaiting(lock, nowNs);
            lock = next;
        }
        return refused;
    }

    /** Whether {@code transactionId} is {@code agent}'s current transaction here (it asked for a lock and has not ended). */
    public boolean holds(int agent, long transactionId) {
        checkAgent(agent);
        return transactionId != 0 && agentTransaction[agent] == transactionId;
    }

    /** Whether any request waits (the server then runs {@link #expire} when idle). */
    public boolean hasWaiters() {
        return waits.hasWaiters();
    }

    private void beginTransaction(int agent, long transactionId, long priority) {
        if (agentTransaction[agent] == transactionId) {
            return;
        }
        if (agentTransaction[agent] != 0 && heldHead[agent] != NONE) {
            // The agent moved on without ending its previous transaction here: strict 2PL forbids that, so count it.
            implicitReleases++;
            releaseAll(agent, 0);
        }
        agentTransaction[agent] = transactionId;
        agentPriority[agent] = priority;
    }

    private int releaseAll(int agent, long nowNs) {
        int released = 0;
        if (waits.isWaiting(agent)) {
            int lock = waits.lockOf(agent);
            waits.unlink(agent);
            grantWaiting(lock, nowNs);
        }
        int entry = heldHead[agent];
        while (entry != NONE) {
            int next = entryNextInTransaction[entry];
            int lock = entryLock[entry];
            int mode = entryMode[entry];
            unlinkHolder(entry, lock);
            int counter = lock * LockMode.COUNT + mode;
            if (--grantedCounts[counter] == 0) {
                grantedModes[lock] &= ~(1 << mode);
            }
            entryNextInTransaction[entry] = freeEntry;
            freeEntry = entry;
            released++;
            grantWaiting(lock, nowNs);
            entry = next;
        }
        heldHead[agent] = NONE;
        heldCount[agent] = 0;
        agentTransaction[agent] = 0;
        agentPriority[agent] = 0;
        return released;
    }

    /** Grants queue heads of {@code lock} while they are compatible. */
    private void grantWaiting(int lock, long nowNs) {
        int head = waits.head(lock);
        while (head != NONE) {
            int mode = waits.mode(head);
            LockMode lockMode = LockMode.ofCode(mode);
            int held = heldMode(head, lock);
            boolean covered = held != NONE && LockMode.ofCode(held).covers(lockMode);
            if (!covered
                    && !lockMode.compatibleWithGranted(grantedModes[lock])
                    && !(held != NONE && lockMode.compatibleWithGranted(othersModes(head, lock)))) {
                return;
            }
            waits.unlink(head);
            if (covered) {
                grants++;
            } else {
                grant(head, lock, mode);
            }
            sink.onGranted(head, waits.transaction(head), firstLockId + lock, lockMode, nowNs - waits.sinceNs(head));
            head = waits.head(lock);
        }
    }

    private void grant(int agent, int lock, int mode) {
        grants++;
        int counter = lock * LockMode.COUNT + mode;
        grantedCounts[counter]++;
        grantedModes[lock] |= 1 << mode;
        if (freeEntry == NONE) {
            growEntries(entryLock.length * 2);
        }
        int entry = freeEntry;
        freeEntry = entryNextInTransaction[entry];
        entryLock[entry] = lock;
        entryMode[entry] = mode;
        entryAgent[entry] = agent;
        entryNextInTransaction[entry] = heldHead[agent];
        heldHead[agent] = entry;
        heldCount[agent]++;
        entryPrevInLock[entry] = NONE;
        entryNextInLock[entry] = holderHead[lock];
        if (holderHead[lock] != NONE) {
            entryPrevInLock[holderHead[lock]] = entry;
        }
        holderHead[lock] = entry;
    }

    private void unlinkHolder(int entry, int lock) {
        int prev = entryPrevInLock[entry];
        int next = entryNextInLock[entry];
        if (prev == NONE) {
            holderHead[lock] = next;
        } else {
            entryNextInLock[prev] = next;
        }
        if (next != NONE) {
            entryPrevInLock[next] = prev;
        }
    }

    /** The strongest mode {@code agent} holds on {@code lock} (as a code), or NONE. */
    private int heldMode(int agent, int lock) {
        if (grantedModes[lock] == 0 || heldHead[agent] == NONE) {
            return NONE;
        }
        int strongest = NONE;
        for (int entry = holderHead[lock]; entry != NONE; entry = entryNextInLock[entry]) {
            if (entryAgent[entry] == agent
                    && (strongest == NONE || LockMode.ofCode(entryMode[entry]).covers(LockMode.ofCode(strongest)))) {
                strongest = entryMode[entry];
            }
        }
        return strongest;
    }

    /** The granted modes of {@code lock}'s holders other than {@code agent}, as a bit set. */
    private int othersModes(int agent, int lock) {
        int modes = 0;
        for (int entry = holderHead[lock]; entry != NONE; entry = entryNextInLock[entry]) {
            if (entryAgent[entry] != agent) {
                modes |= 1 << entryMode[entry];
            }
        }
        return modes;
    }

    /** WAIT_DIE: whether {@code agent}'s transaction is older than every other holder and waiter of {@code lock}. */
    private boolean olderThanAll(int agent, int lock) {
        long priority = agentPriority[agent];
        for (int entry = holderHead[lock]; entry != NONE; entry = entryNextInLock[entry]) {
            int holder = entryAgent[entry];
            if (holder != agent && agentPriority[holder] <= priority) {
                return false;
            }
        }
        for (int waiter = waits.head(lock); waiter != NONE; waiter = waits.next(waiter)) {
            if (waits.priority(waiter) <= priority) {
                return false;
            }
        }
        return true;
    }

    private void growEntries(int capacity) {
        int old = entryLock == null ? 0 : entryLock.length;
        entryLock = entryLock == null ? new int[capacity] : Arrays.copyOf(entryLock, capacity);
        entryMode = entryMode == null ? new int[capacity] : Arrays.copyOf(entryMode, capacity);
        entryAgent = entryAgent == null ? new int[capacity] : Arrays.copyOf(entryAgent, capacity);
        entryNextInTransaction =
                entryNextInTransaction == null ? new int[capacity] : Arrays.copyOf(entryNextInTransaction, capacity);
        entryNextInLock = entryNextInLock == null ? new int[capacity] : Arrays.copyOf(entryNextInLock, capacity);
        entryPrevInLock = entryPrevInLock == null ? new int[capacity] : Arrays.copyOf(entryPrevInLock, capacity);
        for (int entry = capacity - 1; entry >= old; entry--) {
            entryNextInTransaction[entry] = freeEntry;
            freeEntry = entry;
        }
    }

    private int index(long lockId) {
        long index = lockId - firstLockId;
        if (index < 0 || index >= lockCount) {
            throw new IllegalArgumentException("lock " + lockId + " is not in this server's range [" + firstLockId
                    + ", " + (firstLockId + lockCount) + ")");
        }
        return (int) index;
    }

    private void checkAgent(int agent) {
        if (agent < 0 || agent >= agents) {
            throw new IllegalArgumentException("agent " + agent + " out of range [0, " + agents + ")");
        }
    }

    // Observers, for tests, leak checks and statistics (not for the data path).

    /** How many locks of {@code mode} are granted on {@code lockId}. */
    public int grantedCount(long lockId, LockMode mode) {
        return grantedCounts[index(lockId) * LockMode.COUNT + mode.ordinal()];
    }

    /** The group mode of {@code lockId} (Table 2.1b): NL when nothing is granted. */
    public LockMode groupMode(long lockId) {
        return LockMode.groupMode(grantedModes[index(lockId)]);
    }

    /** How many requests wait for {@code lockId}. */
    public int waiting(long lockId) {
        int count = 0;
        for (int waiter = waits.head(index(lockId)); waiter != NONE; waiter = waits.next(waiter)) {
            count++;
        }
        return count;
    }

    /** How many held-lock entries {@code agent}'s transaction has here. */
    public int heldCount(int agent) {
        checkAgent(agent);
        return heldCount[agent];
    }

    /** The number of granted held-lock entries over all transactions (0 when nothing leaked). */
    public int heldEntries() {
        int total = 0;
        for (int count : heldCount) {
            total += count;
        }
        return total;
    }

    /** Whether nothing is held or waiting: every counter zero, no queue, no transaction. */
    public boolean isIdle() {
        if (waits.hasWaiters() || heldEntries() != 0) {
            return false;
        }
        for (int modes : grantedModes) {
            if (modes != 0) {
                return false;
            }
        }
        return true;
    }

    /** Locks granted so far (immediately or after waiting). */
    public long grants() {
        return grants;
    }

    /** Requests refused at once (NO_WAIT, WAIT_DIE). */
    public long denials() {
        return denials;
    }

    /** Queued requests refused by the timeout. */
    public long timeouts() {
        return timeouts;
    }

    /** Transactions whose locks were released because the agent began another one without ending this one here. */
    public long implicitReleases() {
        return implicitReleases;
    }
}
