/**
 * The experiment harness: one driver per paper experiment ({@link dev.faro.bench.experiment}, {@code faro bench
 * shuffle e1} … {@code e8}), each running the experiment and its baselines in the same invocation and reporting
 * ratios, written as CSV, JSON metadata and PNG plots under {@code results/}; the multi-process shuffle runner they
 * share ({@link dev.faro.bench.shuffle}); the MPI baseline program ({@link dev.faro.bench.baseline}); the fabric
 * benchmark ({@link dev.faro.bench.fabric}). Later also JMH micro-benchmarks ({@code .micro}).
 */
package dev.faro.bench;
