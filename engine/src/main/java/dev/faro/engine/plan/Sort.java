package dev.faro.engine.plan;

import dev.faro.engine.vector.Schema;
import java.util.List;
import java.util.Objects;

/** All rows of {@code child} ordered by {@code keys}; runs the rest of its pipeline on one thread to keep order. */
public record Sort(PlanNode child, List<SortKey> keys) implements PlanNode {

    public Sort {
        Objects.requireNonNull(child, "child is null");
        keys = List.copyOf(Objects.requireNonNull(keys, "keys is null"));
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("a sort needs at least one key");
        }
        for (SortKey key : keys) {
            child.outputSchema().indexOf(key.column());
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
