/**
 * Vectorized operators with Trino's contract ({@link dev.faro.engine.operator.Operator}: needsInput, addInput,
 * getOutput, finish, isFinished, isBlocked), each with a nested immutable factory creating one instance per driver
 * thread. Streaming operators: scan (morsels from a shared {@link dev.faro.engine.operator.Morsels} dispenser), filter,
 * project, limit, hash-join probe. Sinks ({@link dev.faro.engine.operator.SinkFactory}, pipeline breakers whose
 * factory merges the threads' state once all drivers ended): join build (a hash table shared by all probing threads,
 * built in parallel), hash aggregation (SINGLE/PARTIAL/FINAL), sort and top-N, collect.
 *
 * <p>Speed, each measured against the old path in a test: late materialisation (a filter gathers, and a join probe
 * fills, only the columns an operator above reads, from {@code RequiredColumns.unread}; the others hold unspecified
 * values); a blocked Bloom filter over a large join build's key hashes ({@link dev.faro.engine.operator.JoinFilter}),
 * checked before the table (a probe operator stops consulting it once it rejects fewer than half of a batch of at
 * least 1,024 rows); group prefetching on tables larger than the core's caches (the one-long-key join probe and
 * aggregation first read the buckets of a chunk of 256 rows in a pass of independent loads, so the cache misses
 * overlap); aggregation merges reserve their groups up front.
 */
package dev.faro.engine.operator;
