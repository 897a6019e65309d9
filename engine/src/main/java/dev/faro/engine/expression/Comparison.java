package dev.faro.engine.expression;

import java.util.Objects;

/** {@code left op right}, NULL when either side is NULL. */
public record Comparison(Operator operator, Expression left, Expression right) implements Expression {

    /** The six comparison operators. */
    public enum Operator {
        EQUAL,
        NOT_EQUAL,
        LESS_THAN,
        LESS_THAN_OR_EQUAL,
        GREATER_THAN,
        GREATER_THAN_OR_EQUAL
    }

    public Comparison {
        Objects.requireNonNull(operator, "operator is null");
        Objects.requireNonNull(left, "left is null");
        Objects.requireNonNull(right, "right is null");
    }
}
