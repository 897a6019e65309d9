package dev.faro.engine.plan;

/**
 * SINGLE aggregates raw rows to final values; PARTIAL aggregates raw rows to state columns (SUM, COUNT, MIN, MAX:
 * one column named like the aggregate; AVG: {@code name$sum} DOUBLE and {@code name$count} BIGINT) that can be
 * shuffled; FINAL merges such state columns (read by name, the same aggregate list as the PARTIAL) to final values.
 */
public enum AggregationPhase {
    SINGLE,
    PARTIAL,
    FINAL
}
