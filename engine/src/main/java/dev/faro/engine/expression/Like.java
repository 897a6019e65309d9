package dev.faro.engine.expression;

import java.util.Objects;

/** {@code value LIKE pattern}: {@code %} matches any run of characters, {@code _} exactly one; no escape. */
public record Like(Expression value, String pattern) implements Expression {

    public Like {
        Objects.requireNonNull(value, "value is null");
        Objects.requireNonNull(pattern, "pattern is null");
    }
}
