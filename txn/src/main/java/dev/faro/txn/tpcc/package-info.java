/**
 * A TPC-C lock-set generator ({@link dev.faro.txn.tpcc.TpccLockSets}): for each transaction of the standard mix, the
 * resources it locks and how, calibrated to the statistics of ETH19's MySQL traces. Its API uses only its own types
 * (resource ids partitioned by warehouse, {@link dev.faro.txn.tpcc.LockIntent}), so other lock managers (DAIS16's) can
 * reuse it; {@code dev.faro.txn.workload.TpccWorkload} maps it onto this module's lock manager.
 */
package dev.faro.txn.tpcc;
