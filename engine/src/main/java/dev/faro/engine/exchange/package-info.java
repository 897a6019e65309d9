/**
 * Exchanges as a streaming operator pair over the shuffle layer's exchange transport SPI
 * ({@link dev.faro.shuffle.transport}): {@link dev.faro.engine.exchange.ShuffleExchange} opens one channel per plan
 * exchange (REPARTITION: one transmission group per node, rows partitioned by a hash of their key columns; BROADCAST:
 * one group of every node; GATHER: one group of node 0). The producing pipeline ends in an
 * {@link dev.faro.engine.exchange.ExchangeSinkOperator} per driver, which hashes the key columns on the vectors and
 * encodes each row once, straight into its group's transport buffer; the consuming pipeline starts with an
 * {@link dev.faro.engine.exchange.ExchangeSourceOperator} per driver, which decodes straight from each received
 * buffer and releases it. Both pipelines run at the same time, so the exchange holds no more than the transport's
 * buffers. Rows are in VLDB16's densely packed format ({@link dev.faro.engine.exchange.RowCodec}: fixed-width
 * columns, nullable ones, real-length strings), specialised per schema, with nullability decided from the plan
 * ({@link dev.faro.engine.exchange.Nullability}); the partitioner is node- and thread-independent.
 */
package dev.faro.engine.exchange;
