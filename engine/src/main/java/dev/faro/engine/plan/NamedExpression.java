package dev.faro.engine.plan;

import dev.faro.engine.expression.Expression;
import java.util.Objects;

/** An output column of a {@link Project}: {@code expression AS name}. */
public record NamedExpression(String name, Expression expression) {

    public NamedExpression {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(expression, "expression is null");
    }
}
