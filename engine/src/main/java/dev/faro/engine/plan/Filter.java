package dev.faro.engine.plan;

import dev.faro.engine.expression.Expression;
import dev.faro.engine.expression.ExpressionTypes;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.TypeKind;
import java.util.List;
import java.util.Objects;

/** The rows of {@code child} where {@code predicate} is TRUE. */
public record Filter(PlanNode child, Expression predicate) implements PlanNode {

    public Filter {
        Objects.requireNonNull(child, "child is null");
        Objects.requireNonNull(predicate, "predicate is null");
        if (ExpressionTypes.typeOf(predicate, child.outputSchema()).kind() != TypeKind.BOOLEAN) {
            throw new IllegalArgumentException("filter predicate is not BOOLEAN: predicate=" + predicate);
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
