/**
 * Physical plans: immutable, validated records under the sealed {@link dev.faro.engine.plan.PlanNode} (table scan,
 * filter, project, hash join, aggregate, sort, top-N, limit, exchange), each deriving its output schema; a fluent
 * builder ({@link dev.faro.engine.plan.PlanNode}'s default methods and {@link dev.faro.engine.plan.Plans}) for
 * hand-written plans; JSON round trip through Jackson ({@link dev.faro.engine.plan.PlanJson}).
 */
package dev.faro.engine.plan;
