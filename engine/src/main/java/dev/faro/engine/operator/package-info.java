/**
 * Vectorized operators with Trino's contract ({@link dev.faro.engine.operator.Operator}: needsInput, addInput,
 * getOutput, finish, isFinished, isBlocked), each with a nested immutable factory creating one instance per driver thread.
 * Streaming operators: scan (morsels from a shared {@link dev.faro.engine.operator.Morsels} dispenser), filter,
 * project, limit, hash-join probe. Sinks ({@link dev.faro.engine.operator.SinkFactory}, pipeline breakers whose
 * factory merges the threads' state once all drivers ended): join build (a hash table shared by all probing threads,
 * built in parallel), hash aggregation (SINGLE/PARTIAL/FINAL), sort and top-N, collect.
 */
package dev.faro.engine.operator;
