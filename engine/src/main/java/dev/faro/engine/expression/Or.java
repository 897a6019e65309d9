package dev.faro.engine.expression;

import java.util.List;
import java.util.Objects;

/** The disjunction of at least one term, with SQL three-valued logic. */
public record Or(List<Expression> terms) implements Expression {

    public Or {
        Objects.requireNonNull(terms, "terms is null");
        terms = List.copyOf(terms);
        if (terms.isEmpty()) {
            throw new IllegalArgumentException("OR needs at least one term");
        }
    }
}
