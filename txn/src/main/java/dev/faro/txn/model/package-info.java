/** ETH19's transaction model (§5.3, Eqs. 5.1–5.4): predicted transaction time and throughput from measured latencies. */
package dev.faro.txn.model;
