/**
 * A small TPC-C database generated in memory ({@link dev.faro.engine.tpcc.TpccGenerator}: the nine tables, the
 * specification's cardinalities for W warehouses, deterministic from a seed, randomly placed over the nodes in blocks)
 * and DAIS16's three analytical queries over it ({@link dev.faro.engine.tpcc.TpccQueries}, the paper's Listing 1.1)
 * as distributed plans with their SQL for an oracle. Data only: no transactions, no lock-manager types (the
 * lock-manager's TPC-C lock sets are {@code dev.faro.txn.tpcc}'s).
 */
package dev.faro.engine.tpcc;
