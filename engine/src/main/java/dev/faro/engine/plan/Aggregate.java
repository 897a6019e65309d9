package dev.faro.engine.plan;

import dev.faro.engine.vector.Schema;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Hash aggregation of {@code child} grouped by the columns {@code groupKeys} (empty: one global group, which yields
 * one row even over no input in the SINGLE and FINAL phases). Output: the group keys, then per aggregate its value
 * (SINGLE, FINAL) or its state columns (PARTIAL, see {@link AggregationPhase}).
 */
public record Aggregate(AggregationPhase phase, PlanNode child, List<String> groupKeys, List<AggregateCall> aggregates)
        implements PlanNode {

    public Aggregate {
        Objects.requireNonNull(phase, "phase is null");
        Objects.requireNonNull(child, "child is null");
        groupKeys = List.copyOf(Objects.requireNonNull(groupKeys, "groupKeys is null"));
        aggregates = List.copyOf(Objects.requireNonNull(aggregates, "aggregates is null"));
        if (groupKeys.isEmpty() && aggregates.isEmpty()) {
            throw new IllegalArgumentException("an aggregation needs group keys or aggregates");
        }
        Set<String> names = new HashSet<>(groupKeys);
        for (AggregateCall call : aggregates) {
            if (!names.add(call.name())) {
                throw new IllegalArgumentException("duplicate output name: name=" + call.name());
            }
            if (call.function() == AggregateFunction.COUNT_DISTINCT && phase != AggregationPhase.SINGLE) {
                throw new IllegalArgumentException("COUNT_DISTINCT runs in the SINGLE phase only: name=" + call.name());
            }
        }
        AggregateSchemas.output(phase, child.outputSchema(), groupKeys, aggregates);
    }

    @Override
    public Schema outputSchema() {
        return AggregateSchemas.output(phase, child.outputSchema(), groupKeys, aggregates);
    }

    @Override
    public List<PlanNode> children() {
        return List.of(child);
    }
}
