package dev.faro.txn.workload;

import dev.faro.txn.node.AgentStatistics;
import dev.faro.txn.node.TransactionAgent;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * Runs a {@link Workload} on one agent: each transaction acquires its locks one after the other and commits, or
 * aborts at the first refused lock (it is not retried: the measurement counts it as aborted). Counts committed
 * transactions per type.
 *
 * <p>Data path: the loop allocates nothing.
 */
public final class WorkloadRunner {

    private final TransactionAgent agent;
    private final Workload workload;
    private final SplittableRandom random;
    private final LockList locks = new LockList();
    private final long[] committedByType;
    private final LockLevelStatistics levels;
    private final int firstLockLevel;

    public WorkloadRunner(TransactionAgent agent, Workload workload, long seed) {
        this.agent = agent;
        this.workload = workload;
        this.random = new SplittableRandom(seed ^ (agent.index() * 0x9E3779B97F4A7C15L));
        this.committedByType = new long[workload.transactionTypes().size()];
        this.firstLockLevel = workload.lockLevels().size();
        this.levels = new LockLevelStatistics(firstLockLevel + 1);
    }

    /** Runs transactions until {@code stop} says so (checked between transactions). */
    public void runUntil(BooleanSupplier stop) {
        while (!stop.getAsBoolean()) {
            runOne();
        }
    }

    /** Runs one transaction; returns whether it committed. */
    public boolean runOne() {
        workload.next(agent.index(), random, locks);
        agent.begin(System.nanoTime());
        for (int i = 0; i < locks.size(); i++) {
            long lockId = locks.lockId(i);
            boolean granted = agent.lock(lockId, locks.mode(i));
            levels.record(
                    i == 0 ? firstLockLevel : workload.lockLevel(lockId),
                    agent.lastLockRemote(),
                    granted,
                    agent.lastLockLatencyNs(),
                    agent.lastLockQueuedNs());
            if (!granted) {
                agent.abort();
                return false;
            }
        }
        boolean committed = agent.commit();
        if (committed) {
            committedByType[locks.type()]++;
        }
        return committed;
    }

    /** Committed transactions of type {@code type} since the last {@link #reset}. */
    public long committed(int type) {
        return committedByType[type];
    }

    /** Zeroes the per-type counts and the agent's statistics (the end of a warm-up). */
    public void reset() {
        java.util.Arrays.fill(committedByType, 0);
        levels.reset();
        agent.resetStatistics();
    }

    /**
     * The lock requests since the last {@link #reset}, by the workload's lock level, and in a level of its own after
     * those ({@link #levelNames}) the first request of each transaction, whatever its level.
     */
    public LockLevelStatistics lockLevels() {
        return levels;
    }

    /** The names of {@link #lockLevels()}'s levels: the workload's, then the first lock of a transaction. */
    public static java.util.List<String> levelNames(Workload workload) {
        java.util.List<String> names = new java.util.ArrayList<>(workload.lockLevels());
        names.add(FIRST_LOCK);
        return java.util.List.copyOf(names);
    }

    /** The name of the level of every transaction's first lock request. */
    public static final String FIRST_LOCK = "first lock of a tx";

    public AgentStatistics statistics() {
        return agent.statistics();
    }
}
