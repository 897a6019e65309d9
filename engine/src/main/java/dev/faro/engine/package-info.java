/**
 * Faro's parallel in-memory query engine. Packages: {@code vector} (typed column vectors and batches),
 * {@code expression} (scalar expressions and their evaluation), {@code operator} (scan, filter, project, hash join,
 * aggregation, sort, top-N, limit), {@code exchange} (repartition, broadcast and gather over the shuffle layer's
 * SHUFFLE/RECEIVE operators), {@code plan} (immutable physical plan nodes, JSON through Jackson), {@code exec}
 * (morsel-driven execution of a plan on one node), {@code tpch} (TPC-H data generation, placement and query plans).
 *
 * <p>The engine knows nothing about processes or sockets: it runs a plan on one node given a fabric and a peer
 * exchange; the {@code cluster} module ships plans and gathers results.
 */
package dev.faro.engine;
