package dev.faro.engine.expression;

import java.util.Objects;

/** The value of the input column named {@code name}. */
public record ColumnReference(String name) implements Expression {

    public ColumnReference {
        Objects.requireNonNull(name, "name is null");
    }
}
