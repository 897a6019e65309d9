package dev.faro.engine.expression;

import java.util.List;
import java.util.Objects;

/** {@code value IN (list...)}; the list holds literals. NULL when the value is NULL. */
public record InList(Expression value, List<Expression> list) implements Expression {

    public InList {
        Objects.requireNonNull(value, "value is null");
        Objects.requireNonNull(list, "list is null");
        list = List.copyOf(list);
        if (list.isEmpty()) {
            throw new IllegalArgumentException("IN needs at least one element");
        }
        for (Expression element : list) {
            if (!(element instanceof Literal)) {
                throw new IllegalArgumentException("IN list elements must be literals: element=" + element);
            }
        }
    }
}
