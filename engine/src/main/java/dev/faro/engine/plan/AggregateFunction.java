package dev.faro.engine.plan;

/**
 * Aggregate functions. SUM of INTEGER/BIGINT is BIGINT, of DECIMAL(s) DECIMAL(s), of DOUBLE DOUBLE; COUNT and
 * COUNT_STAR are BIGINT; AVG is DOUBLE; MIN and MAX keep the argument's type. COUNT_DISTINCT runs in the SINGLE phase
 * only (repartition on the group keys first). All but COUNT and COUNT_STAR ignore NULLs and are NULL over no rows.
 */
public enum AggregateFunction {
    SUM,
    COUNT,
    COUNT_STAR,
    AVG,
    MIN,
    MAX,
    COUNT_DISTINCT
}
