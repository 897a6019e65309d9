package dev.faro.engine.expression;

import java.util.Objects;

/** Logical negation (NULL stays NULL). */
public record Not(Expression operand) implements Expression {

    public Not {
        Objects.requireNonNull(operand, "operand is null");
    }
}
