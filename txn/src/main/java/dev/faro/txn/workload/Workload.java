package dev.faro.txn.workload;

import java.util.SplittableRandom;

/** What transactions an agent runs: fills the lock list of the next one (ETH19 §5.4.1's workloads). */
public interface Workload {

    /** A short name for reports, e.g. {@code synthetic 10% remote}. */
    String name();

    /** The names of the transaction types {@link LockList#type()} indexes, e.g. {@code [new-order, payment, ...]}. */
    java.util.List<String> transactionTypes();

    /**
     * Fills {@code into} with the next transaction of agent {@code agent} (its global index). Allocation-free.
     *
     * @param random the agent's own generator
     */
    void next(int agent, SplittableRandom random, LockList into);

    /** The names of the lock levels {@link #lockLevel} returns, for the per-level latency split; one by default. */
    default java.util.List<String> lockLevels() {
        return java.util.List.of("lock");
    }

    /** The level of {@code lockId} in {@link #lockLevels()} (e.g. TPC-C's table intention lock or warehouse row). */
    default int lockLevel(long lockId) {
        return 0;
    }
}
