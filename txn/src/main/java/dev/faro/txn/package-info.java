/**
 * ETH19 (Barthels' thesis, chapter 5): a distributed lock manager with strict two-phase locking and two-phase commit
 * over the fabric. Lock servers own equal ranges of lock ids ({@code lock}); transaction agents talk to them through
 * mailboxes written with notified puts and vote through one remote fetch-and-add ({@code mailbox}, {@code commit},
 * {@code node}); workloads drive them ({@code workload}, and the TPC-C lock-set generator in {@code tpcc}, which knows
 * nothing of the lock manager); the transaction model of Eqs. 5.1–5.4 is in {@code model}.
 *
 * <p>Depends only on {@code fabric}. The multi-process wiring ({@code faro bench locks}) lives in {@code bench}.
 */
package dev.faro.txn;
