/**
 * Typed column vectors and batches: the engine's in-memory data representation. A {@link dev.faro.engine.vector.Batch}
 * is a row count plus one {@link dev.faro.engine.vector.Vector} per column; a {@link dev.faro.engine.vector.Table} is a
 * node's list of batches (one morsel each). Types are described by {@link dev.faro.engine.vector.DataType}: INTEGER and
 * DATE (days since 1970-01-01) are stored as {@code int}, BIGINT and DECIMAL (unscaled) as {@code long}, DOUBLE as
 * {@code double}, VARCHAR as {@code String} (bounded by a byte length so rows have a fixed width in exchanges) and
 * BOOLEAN as {@code boolean}.
 */
package dev.faro.engine.vector;
