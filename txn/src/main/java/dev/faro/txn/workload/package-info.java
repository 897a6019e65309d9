/**
 * The lock manager's workloads (ETH19 §5.4.1): the {@link dev.faro.txn.workload.Workload} an agent draws its
 * transactions from, the synthetic one (fixed locks per transaction, a remote probability, random modes, and a hot-lock probability for
 * contention), the TPC-C one
 * built on {@code dev.faro.txn.tpcc}'s generator, the runner that drives an agent with one, and the bank transfers
 * whose conserved total checks serializability.
 */
package dev.faro.txn.workload;
