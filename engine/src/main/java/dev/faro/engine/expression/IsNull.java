package dev.faro.engine.expression;

import java.util.Objects;

/** {@code operand IS NULL}; never NULL itself. Negate with {@link Not} for IS NOT NULL. */
public record IsNull(Expression operand) implements Expression {

    public IsNull {
        Objects.requireNonNull(operand, "operand is null");
    }
}
