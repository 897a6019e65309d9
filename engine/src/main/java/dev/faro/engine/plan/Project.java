package dev.faro.engine.plan;

import dev.faro.engine.expression.ExpressionTypes;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Computes {@code projections} over each row of {@code child}. */
public record Project(PlanNode child, List<NamedExpression> projections) implements PlanNode {

    public Project {
        Objects.requireNonNull(child, "child is null");
        Objects.requireNonNull(projections, "projections is null");
        projections = List.copyOf(projections);
        if (projections.isEmpty()) {
            throw new IllegalArgumentException("a projection needs at least one column");
        }
        schema(child, projections);
    }

    @Override
    public Schema outputSchema() {
        return schema(child, projections);
    }

    private static Schema schema(PlanNode child, List<NamedExpression> projections) {
        Schema input = child.outputSchema();
        List<Column> columns = new ArrayList<>();
        for (NamedExpression projection : projections) {
            columns.add(new Column(projection.name(), ExpressionTypes.typeOf(projection.expression(), input)));
        }
        return new Schema(columns);
    }

    @Override
    public List<PlanNode> children() {
        return List.of(child);
    }
}
