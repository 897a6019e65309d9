package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Vector;

/** An input column, as is. */
record ColumnEvaluator(int index, DataType type) implements Evaluator {

    @Override
    public Vector evaluate(Batch batch) {
        return batch.column(index);
    }
}
