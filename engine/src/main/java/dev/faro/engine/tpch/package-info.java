/**
 * TPC-H for Faro: data generation with {@code io.trino.tpch} ({@link dev.faro.engine.tpch.TpchGenerator}), placement
 * of tuples on nodes ({@link dev.faro.engine.tpch.Placement}: TODS19's random placement or VLDB16's partitioning on
 * the first key; NATION and REGION replicated), table schemas ({@link dev.faro.engine.tpch.TpchTables}) and the
 * hand-written distributed query plans.
 */
package dev.faro.engine.tpch;
