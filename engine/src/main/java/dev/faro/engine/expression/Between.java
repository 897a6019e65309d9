package dev.faro.engine.expression;

import java.util.Objects;

/** {@code value BETWEEN low AND high} (both bounds inclusive). */
public record Between(Expression value, Expression low, Expression high) implements Expression {

    public Between {
        Objects.requireNonNull(value, "value is null");
        Objects.requireNonNull(low, "low is null");
        Objects.requireNonNull(high, "high is null");
    }
}
