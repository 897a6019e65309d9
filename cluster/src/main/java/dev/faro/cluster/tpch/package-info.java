/**
 * TPC-H on the cluster runtime: the worker task handlers that load a node's share of the database
 * ({@link dev.faro.cluster.tpch.TpchLoadHandler}) and execute a plan ({@link dev.faro.cluster.tpch.QueryHandler}),
 * found by {@link java.util.ServiceLoader}, their payloads ({@link dev.faro.cluster.tpch.TpchLoadTask},
 * {@link dev.faro.cluster.tpch.QueryTask}: encoded by the coordinator, decoded strictly by the workers), the
 * coordinator's {@link dev.faro.cluster.tpch.TpchSession}, and the JSON form of results
 * ({@link dev.faro.cluster.tpch.ResultCodec}).
 */
package dev.faro.cluster.tpch;
