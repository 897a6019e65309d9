package dev.faro.engine.expression;

import java.util.List;
import java.util.Objects;

/**
 * {@code CASE WHEN c1 THEN v1 ... ELSE otherwise END}: the value of the first true condition, else {@code otherwise}
 * (a NULL literal when absent). The result type is the common type of the values.
 */
public record Case(List<When> whens, Expression otherwise) implements Expression {

    /** One {@code WHEN condition THEN value} arm. */
    public record When(Expression condition, Expression value) {
        public When {
            Objects.requireNonNull(condition, "condition is null");
            Objects.requireNonNull(value, "value is null");
        }
    }

    public Case {
        Objects.requireNonNull(whens, "whens is null");
        Objects.requireNonNull(otherwise, "otherwise is null");
        whens = List.copyOf(whens);
        if (whens.isEmpty()) {
            throw new IllegalArgumentException("CASE needs at least one WHEN");
        }
    }
}
