/**
 * The lock manager's workloads (ETH19 §5.4.1): the {@link dev.faro.txn.workload.Workload} an agent draws its
 * transactions from, the synthetic one (fixed locks per transaction, a remote probability, random modes), the TPC-C one
 * built on {@code dev.faro.txn.tpcc}'s generator, and the runner that drives an agent with one.
 */
package dev.faro.txn.workload;
