/**
 * Exchanges over the shuffle layer: {@link dev.faro.engine.exchange.ShuffleExchange} opens one shuffle per plan
 * exchange (REPARTITION: one transmission group per node, rows partitioned by a hash of their key columns; BROADCAST:
 * one group of every node; GATHER: one group of node 0), runs the TODS19 SHUFFLE operator as the sink of the
 * producing pipeline and the RECEIVE operator on receiver threads, with fixed-width rows
 * ({@link dev.faro.engine.exchange.RowCodec}) and a node- and thread-independent partitioner.
 */
package dev.faro.engine.exchange;
