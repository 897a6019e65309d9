/**
 * ETH19 (Barthels' thesis, chapters 3 and 4): distributed joins over one-sided RDMA on the Faro fabric.
 *
 * <ul>
 *   <li>{@code .rma}: the reusable RMA layer (groups of ranks, windows, puts with per-request completion and flush,
 *       notified puts, collectives over the fabric);
 *   <li>{@code .workload}: the thesis's input relations (16-byte key, rid tuples; 1:N, selectivity, Zipf);
 *   <li>{@code .radix}: the distributed radix hash join, its single-process reference, the phase timers;
 *   <li>{@code .sortmerge}: the distributed sort-merge join and its micro-benchmarks;
 *   <li>{@code .model}: the thesis's performance models of the radix join (Eqs. 3.1–3.11) and the sort-merge join
 *       (Eqs. 3.12–3.20).
 * </ul>
 *
 * <p>At the root: {@link dev.faro.join.JoinResult} (count and checksum of matches) and {@link dev.faro.join.Workers}
 * (one phase on T threads), shared by both joins.
 *
 * <p>The module knows nothing of plans, SQL or the cluster runtime: the benchmark ({@code faro bench join}) runs it
 * inside cluster tasks and hands it the task's fabric node and bootstrap exchange.
 */
package dev.faro.join;
