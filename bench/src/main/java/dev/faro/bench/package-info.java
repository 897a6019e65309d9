/**
 * The experiment harness: one driver per paper experiment, each running the experiment and its baselines in
 * the same invocation and reporting ratios, written as CSV plus a PNG plot under {@code results/}. Later also
 * JMH micro-benchmarks ({@code .micro}) and the baseline programs.
 */
package dev.faro.bench;
