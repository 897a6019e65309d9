package dev.faro.engine.plan;

import dev.faro.engine.vector.Schema;
import java.util.List;
import java.util.Objects;

/**
 * Moves the rows of {@code child} between nodes (see {@link ExchangeKind}); {@code keys} are the hash columns of a
 * REPARTITION and empty otherwise. With one node an exchange passes rows through.
 */
public record Exchange(ExchangeKind kind, List<String> keys, PlanNode child) implements PlanNode {

    public Exchange {
        Objects.requireNonNull(kind, "kind is null");
        Objects.requireNonNull(child, "child is null");
        keys = List.copyOf(Objects.requireNonNull(keys, "keys is null"));
        if ((kind == ExchangeKind.REPARTITION) == keys.isEmpty()) {
            throw new IllegalArgumentException(
                    "REPARTITION needs keys, the other kinds none: kind=" + kind + " keys=" + keys);
        }
        for (String key : keys) {
            child.outputSchema().indexOf(key);
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
