package dev.faro.engine.plan;

import dev.faro.engine.vector.Schema;
import java.util.List;
import java.util.Objects;

/** The first {@code count} rows of {@code child} ordered by {@code keys}. */
public record TopN(PlanNode child, List<SortKey> keys, long count) implements PlanNode {

    public TopN {
        Objects.requireNonNull(child, "child is null");
        keys = List.copyOf(Objects.requireNonNull(keys, "keys is null"));
        if (keys.isEmpty() || count < 0 || count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("top-N needs keys and 0 <= count <= 2^31-1: count=" + count);
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
