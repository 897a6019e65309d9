package dev.faro.engine.expression;

import dev.faro.engine.vector.DataType;
import java.util.Objects;

/**
 * {@code CAST(operand AS type)} between numeric types (INTEGER, BIGINT, DECIMAL, DOUBLE; DECIMAL to a smaller scale
 * truncates toward zero; DOUBLE to exact rounds half up).
 */
public record Cast(Expression operand, DataType type) implements Expression {

    public Cast {
        Objects.requireNonNull(operand, "operand is null");
        Objects.requireNonNull(type, "type is null");
        if (!type.isNumeric()) {
            throw new IllegalArgumentException("cast supports numeric targets only: type=" + type);
        }
    }
}
