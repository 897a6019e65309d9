package dev.faro.engine.plan;

import dev.faro.engine.vector.Schema;
import java.util.List;
import java.util.Objects;

/** At most {@code count} rows of {@code child} (the first ones, when the child is ordered). */
public record Limit(PlanNode child, long count) implements PlanNode {

    public Limit {
        Objects.requireNonNull(child, "child is null");
        if (count < 0) {
            throw new IllegalArgumentException("negative limit: count=" + count);
        }
    }

    @Override
    public Schema outputSchema() {
        return child.outputSchema();
    }

    @Override
    public List<PlanNode> children() {
        return List.of(child);
    }
}
