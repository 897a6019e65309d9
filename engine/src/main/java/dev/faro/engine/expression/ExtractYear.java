package dev.faro.engine.expression;

import java.util.Objects;

/** {@code EXTRACT(YEAR FROM date)} as INTEGER. */
public record ExtractYear(Expression date) implements Expression {

    public ExtractYear {
        Objects.requireNonNull(date, "date is null");
    }
}
