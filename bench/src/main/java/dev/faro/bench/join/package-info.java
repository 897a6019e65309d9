/**
 * {@code faro bench join}: the ETH19 distributed radix hash join ({@code dev.faro.join}) on cluster worker JVMs over
 * the fabric, against the single-process radix join on the same cores and the thesis's model, with the thesis's
 * figures beside ours. {@link dev.faro.bench.join.JoinBenchHandler} runs on the workers,
 * {@link dev.faro.bench.join.JoinBenchmark} drives the cases from the coordinator and
 * {@link dev.faro.bench.join.JoinBenchReport} prints and writes the tables, CSV, JSON and PNG.
 */
package dev.faro.bench.join;
