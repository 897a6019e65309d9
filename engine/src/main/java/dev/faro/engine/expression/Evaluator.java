package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Vector;

/**
 * A compiled expression: evaluates over all rows of a batch at once. Instances are thread-confined (they may cache
 * buffers); compile one per operator instance. The returned vector may be the input's own column or a cached
 * constant: callers must not modify it.
 */
public interface Evaluator {

    DataType type();

    /** The expression's value for rows {@code [0, batch.rowCount())}. */
    Vector evaluate(Batch batch);
}
