/**
 * The distributed radix hash join of ETH19 (thesis §3.2.1, §4.2.1) on the RMA layer: histograms, partition
 * assignment, exclusive receive layout, the network-partitioning pass with k private pre-registered buffers per
 * thread and remote partition written by one-sided WRITE, local radix pass and build-probe with the thesis's skew
 * splitting inside a node ({@link dev.faro.join.radix.BuildProbeTasks}); the phase timers of the
 * thesis ({@link dev.faro.join.radix.PhaseTimes}); and the single-process radix join on the same kernels
 * ({@link dev.faro.join.radix.LocalRadixJoin}), the reference of {@code faro bench join}.
 */
package dev.faro.join.radix;
