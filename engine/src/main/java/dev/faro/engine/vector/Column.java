package dev.faro.engine.vector;

import java.util.Objects;

/** A named, typed column of a {@link Schema}. */
public record Column(String name, DataType type) {

    public Column {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(type, "type is null");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("column name is empty");
        }
    }

    /** Shorthand for {@code new Column(name, type)}. */
    public static Column of(String name, DataType type) {
        return new Column(name, type);
    }
}
