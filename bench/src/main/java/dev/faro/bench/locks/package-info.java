/**
 * {@code faro bench locks}: ETH19 chapter 5's lock-manager experiments on the cluster runtime. The coordinator side
 * ({@link dev.faro.bench.locks.LocksBenchmark}) sends one {@link dev.faro.bench.locks.LocksCase} per point to the
 * first N workers; each worker ({@link dev.faro.bench.locks.LocksBenchHandler}) runs its node's lock servers and
 * agents ({@code dev.faro.txn}) on its fabric, using the round's all-gathers as start and stop barriers, and replies
 * with its counters; {@link dev.faro.bench.locks.LocksReport} prints and writes the tables with the thesis's numbers
 * beside ours.
 */
package dev.faro.bench.locks;
