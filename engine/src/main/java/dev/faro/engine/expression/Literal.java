package dev.faro.engine.expression;

import dev.faro.engine.vector.DataType;
import java.util.Objects;

/**
 * A constant of {@code type} written as text ({@code value} null is SQL NULL): BIGINT/INTEGER {@code "42"}, DECIMAL
 * {@code "0.05"} (at most the type's scale digits after the point), DOUBLE {@code "0.5"}, DATE {@code "1995-03-15"},
 * VARCHAR the string itself, BOOLEAN {@code "true"}. Text keeps the JSON form readable and exact.
 */
public record Literal(DataType type, String value) implements Expression {

    public Literal {
        Objects.requireNonNull(type, "type is null");
        if (value != null) {
            LiteralValues.validate(type, value);
        }
    }
}
