/**
 * Faro's parallel in-memory query engine. Packages: {@code vector} (typed column vectors and batches),
 * {@code expression} (scalar expressions and their evaluation), {@code operator} (scan, filter, project, hash join,
 * aggregation, sort, top-N, limit), {@code exchange} (repartition, broadcast and gather as a streaming sink/source
 * pair over the shuffle layer's exchange transport SPI, {@code dev.faro.shuffle.transport}), {@code plan} (immutable physical plan nodes, JSON through Jackson), {@code exec}
 * (morsel-driven execution of a plan on one node), {@code tpch} (TPC-H data generation, placement and query plans), {@code tpcc} (a small TPC-C database and DAIS16's three analytical queries).
 *
 * <p>Entry points: build a plan with {@code dev.faro.engine.plan.Plans} and the fluent methods of
 * {@code dev.faro.engine.plan.PlanNode} (expressions from {@code dev.faro.engine.expression.Expressions}); run it with
 * {@code dev.faro.engine.exec.QueryExecutor.execute(plan, context)}, where the context is
 * {@code ExecutionContext.local(catalog, threads)} on one node or {@code ExecutionContext.distributed(...)} per node.
 *
 * <p>The engine knows nothing about processes, sockets or which transport moves its rows: it runs a plan on one node
 * given an {@code ExchangeTransport}; the {@code cluster} module builds the transport, ships plans and gathers
 * results.
 */
package dev.faro.engine;
