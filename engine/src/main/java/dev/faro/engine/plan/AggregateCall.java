package dev.faro.engine.plan;

import dev.faro.engine.expression.Expression;
import java.util.Objects;

/** One aggregate of an {@link Aggregate}: {@code function(argument) AS name}; no argument for COUNT_STAR. */
public record AggregateCall(AggregateFunction function, Expression argument, String name) {

    public AggregateCall {
        Objects.requireNonNull(function, "function is null");
        Objects.requireNonNull(name, "name is null");
        if ((argument == null) != (function == AggregateFunction.COUNT_STAR)) {
            throw new IllegalArgumentException("COUNT_STAR takes no argument, every other function one: function="
                    + function + " argument=" + argument);
        }
    }
}
