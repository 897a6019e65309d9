package dev.faro.engine.plan;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.faro.engine.expression.Expression;
import dev.faro.engine.vector.Schema;
import java.util.Arrays;
import java.util.List;

/**
 * A node of a physical plan: an immutable, validated record, JSON-serializable (the {@code "@node"} property names
 * the record; see {@link PlanJson}). Every node derives its output schema from its children. The default methods
 * are a fluent builder: {@code Plans.scan(lineitem, "l_orderkey", ...).filter(...).project(...).aggregate(...)}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "@node")
@JsonSubTypes({
    @JsonSubTypes.Type(value = TableScan.class, name = "scan"),
    @JsonSubTypes.Type(value = Filter.class, name = "filter"),
    @JsonSubTypes.Type(value = Project.class, name = "project"),
    @JsonSubTypes.Type(value = HashJoin.class, name = "join"),
    @JsonSubTypes.Type(value = Aggregate.class, name = "aggregate"),
    @JsonSubTypes.Type(value = Sort.class, name = "sort"),
    @JsonSubTypes.Type(value = TopN.class, name = "topN"),
    @JsonSubTypes.Type(value = Limit.class, name = "limit"),
    @JsonSubTypes.Type(value = Exchange.class, name = "exchange")
})
public sealed interface PlanNode permits TableScan, Filter, Project, HashJoin, Aggregate, Sort, TopN, Limit, Exchange {

    /** The columns this node produces. */
    Schema outputSchema();

    /** The inputs of this node, in order (probe before build for a join). */
    List<PlanNode> children();

    /** Rows of this node where {@code predicate} is TRUE. */
    default Filter filter(Expression predicate) {
        return new Filter(this, predicate);
    }

    /** Computes the given named expressions (see {@link Plans#as}). */
    default Project project(NamedExpression... projections) {
        return new Project(this, List.of(projections));
    }

    /** Keeps only the named columns, in this order. */
    default Project select(String... columns) {
        return new Project(this, Arrays.stream(columns).map(Plans::column).toList());
    }

    /** Inner equi-join with {@code build} (the hashed side), keeping all columns of both sides. */
    default HashJoin join(PlanNode build, List<String> probeKeys, List<String> buildKeys) {
        return new HashJoin(JoinType.INNER, this, build, probeKeys, buildKeys, null, List.of());
    }

    /** Single-key equi-join of {@code type} with {@code build}, keeping all columns (probe columns for SEMI/ANTI). */
    default HashJoin join(JoinType type, PlanNode build, String probeKey, String buildKey) {
        return new HashJoin(type, this, build, List.of(probeKey), List.of(buildKey), null, List.of());
    }

    /** Equi-join of {@code type} with a residual filter (may be null) and explicit output columns (empty: all). */
    default HashJoin join(
            JoinType type,
            PlanNode build,
            List<String> probeKeys,
            List<String> buildKeys,
            Expression residual,
            List<String> outputColumns) {
        return new HashJoin(type, this, build, probeKeys, buildKeys, residual, outputColumns);
    }

    /**
     * Cross join with {@code build} (every pair; for a small build side such as a scalar subquery's one row, which
     * a distributed plan broadcasts), keeping all columns.
     */
    default HashJoin crossJoin(PlanNode build) {
        return new HashJoin(JoinType.INNER, this, build, List.of(), List.of(), null, List.of());
    }

    /** One-phase aggregation grouped by {@code groupKeys} (empty: one global group). */
    default Aggregate aggregate(List<String> groupKeys, AggregateCall... aggregates) {
        return new Aggregate(AggregationPhase.SINGLE, this, groupKeys, List.of(aggregates));
    }

    /** The partial phase (state columns, to be shuffled and merged by {@link #finalAggregate}). */
    default Aggregate partialAggregate(List<String> groupKeys, AggregateCall... aggregates) {
        return new Aggregate(AggregationPhase.PARTIAL, this, groupKeys, List.of(aggregates));
    }

    /** The final phase over the state columns of a {@link #partialAggregate} with the same arguments. */
    default Aggregate finalAggregate(List<String> groupKeys, AggregateCall... aggregates) {
        return new Aggregate(AggregationPhase.FINAL, this, groupKeys, List.of(aggregates));
    }

    /**
     * Distributed two-phase aggregation: PARTIAL here, then a REPARTITION on the group keys (a GATHER when there are
     * none), then FINAL. On one node the exchange is a pass-through.
     */
    default Aggregate distributedAggregate(List<String> groupKeys, AggregateCall... aggregates) {
        Aggregate partial = partialAggregate(groupKeys, aggregates);
        Exchange exchange =
                groupKeys.isEmpty() ? partial.gather() : partial.repartition(groupKeys.toArray(String[]::new));
        return exchange.finalAggregate(groupKeys, aggregates);
    }

    default Sort sort(SortKey... keys) {
        return new Sort(this, List.of(keys));
    }

    default TopN topN(long count, SortKey... keys) {
        return new TopN(this, List.of(keys), count);
    }

    default Limit limit(long count) {
        return new Limit(this, count);
    }

    /** Repartitions rows over the nodes by a hash of {@code keys}. */
    default Exchange repartition(String... keys) {
        return new Exchange(ExchangeKind.REPARTITION, List.of(keys), this);
    }

    /** Sends every row to every node. */
    default Exchange broadcast() {
        return new Exchange(ExchangeKind.BROADCAST, List.of(), this);
    }

    /** Sends every row to node 0. */
    default Exchange gather() {
        return new Exchange(ExchangeKind.GATHER, List.of(), this);
    }
}
