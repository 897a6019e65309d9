/**
 * {@code faro bench middleware}: DAIS16's synthetic 2-stage shuffle (the paper's Figs. 3 and 4) on a cluster of
 * worker JVMs, one per process. The coordinator ({@link dev.faro.bench.middleware.MiddlewareBenchmark}) runs each
 * point as one round on the first {@code processes} workers; each worker
 * ({@link dev.faro.bench.middleware.MiddlewareBenchHandler}) opens the {@code dev.faro.middleware} middleware on its
 * fabric or the NIO baseline, runs the plan on its worker threads between two all-gathers, and replies with its
 * time and counters. The report ({@link dev.faro.bench.middleware.MiddlewareReport}) puts the paper's numbers
 * beside ours.
 */
package dev.faro.bench.middleware;
