package dev.faro.engine.expression;

import java.util.Objects;

/** {@code SUBSTRING(value FROM start FOR length)}, {@code start} 1-based; a VARCHAR of at most {@code length}. */
public record Substring(Expression value, int start, int length) implements Expression {

    public Substring {
        Objects.requireNonNull(value, "value is null");
        if (start < 1 || length < 1) {
            throw new IllegalArgumentException(
                    "substring start and length must be positive: start=" + start + " length=" + length);
        }
    }
}
