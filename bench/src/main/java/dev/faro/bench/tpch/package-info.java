/**
 * {@code faro bench tpch}: TPC-H response times on a local cluster with the exchanges over MESQ/SR, every RC design
 * and the TCP socket baseline, next to a single-process DuckDB on the same rows (TODS19 §7.2, E9–E11 on one machine).
 */
package dev.faro.bench.tpch;
