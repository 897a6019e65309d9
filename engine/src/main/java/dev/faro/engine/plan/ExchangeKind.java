package dev.faro.engine.plan;

/**
 * How an {@link Exchange} moves rows between nodes: REPARTITION by a hash of the key columns (every node gets the
 * rows of its hash partition), BROADCAST (every node gets every row), GATHER (node 0 gets every row, the others
 * nothing).
 */
public enum ExchangeKind {
    REPARTITION,
    BROADCAST,
    GATHER
}
