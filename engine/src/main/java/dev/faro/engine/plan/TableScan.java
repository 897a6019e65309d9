package dev.faro.engine.plan;

import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.Schema;
import java.util.List;
import java.util.Objects;

/** Reads {@code columns} of the node's table {@code table}, morsel by morsel; types are checked at execution. */
public record TableScan(String table, List<Column> columns) implements PlanNode {

    public TableScan {
        Objects.requireNonNull(table, "table is null");
        Objects.requireNonNull(columns, "columns is null");
        columns = List.copyOf(columns);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a scan needs at least one column: table=" + table);
        }
        new Schema(columns); // validates unique names
    }

    @Override
    public Schema outputSchema() {
        return new Schema(columns);
    }

    @Override
    public List<PlanNode> children() {
        return List.of();
    }
}
