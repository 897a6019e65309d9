package dev.faro.engine.expression;

import java.util.List;
import java.util.Objects;

/** The conjunction of at least one term, with SQL three-valued logic. */
public record And(List<Expression> terms) implements Expression {

    public And {
        Objects.requireNonNull(terms, "terms is null");
        terms = List.copyOf(terms);
        if (terms.isEmpty()) {
            throw new IllegalArgumentException("AND needs at least one term");
        }
    }
}
