/**
 * The distributed sort-merge join of ETH19 (thesis §3.2.2, §4.2.2) on the RMA layer: range partitioning (equal-width
 * or sampled splitters), window sizes, offsets and run boundaries from reduce-scatter, scan and all-to-all, sorted
 * runs shipped by one-sided WRITE while the next run is sorted (destinations staggered from the thread's own range
 * + 1), multi-way merge and merge-join scan; and the per-thread micro-benchmarks of its model
 * ({@link dev.faro.join.sortmerge.SortMergeMicroBenchmarks}: P_scan, P_partition, P_sort_run(l), P_merge at the
 * join's fan-in, P_scan of the match).
 */
package dev.faro.join.sortmerge;
