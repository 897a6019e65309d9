/**
 * The lock table of ETH19 chapter 5 (§5.2.2): the six lock modes of multi-level granularity locking with Table 2.1's
 * compatibility matrix and group mode ({@link dev.faro.txn.lock.LockMode}), and one server's section of the table
 * ({@link dev.faro.txn.lock.LockTable}: granted counters, FIFO waiting groups with timestamps, the transaction table
 * that makes strict 2PL's single end-of-transaction release possible, the pending-locks list) with the bounded-wait
 * deadlock handling and the NO_WAIT and WAIT_DIE baselines ({@link dev.faro.txn.lock.DeadlockPolicy}).
 *
 * <p>Knows nothing about the fabric: the lock server ({@code dev.faro.txn.node}) feeds it decoded requests.
 */
package dev.faro.txn.lock;
