package dev.faro.engine.expression;

import java.util.Objects;

/** {@code left op right}; see {@link Expression} for the typing rules. */
public record Arithmetic(Operator operator, Expression left, Expression right) implements Expression {

    /** The four arithmetic operators. */
    public enum Operator {
        ADD,
        SUBTRACT,
        MULTIPLY,
        DIVIDE
    }

    public Arithmetic {
        Objects.requireNonNull(operator, "operator is null");
        Objects.requireNonNull(left, "left is null");
        Objects.requireNonNull(right, "right is null");
    }
}
