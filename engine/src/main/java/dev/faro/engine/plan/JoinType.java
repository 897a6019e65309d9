package dev.faro.engine.plan;

/**
 * Join semantics, from the probe side's point of view: INNER pairs; LEFT keeps every probe row (build columns NULL
 * when nothing matches); SEMI keeps probe rows with at least one match (EXISTS); ANTI keeps probe rows without any
 * match (NOT EXISTS: a NULL key matches nothing, so such a row is kept). A residual filter, when given, decides what
 * counts as a match.
 */
public enum JoinType {
    INNER,
    LEFT,
    SEMI,
    ANTI
}
