package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Vector;

/** {@code operand IS NULL}. */
record IsNullEvaluator(Evaluator operand) implements Evaluator {

    @Override
    public DataType type() {
        return DataType.BOOLEAN;
    }

    @Override
    public Vector evaluate(Batch batch) {
        int rows = batch.rowCount();
        Vector vector = operand.evaluate(batch);
        boolean[] result = new boolean[rows];
        if (vector.mayHaveNulls()) {
            for (int i = 0; i < rows; i++) {
                result[i] = vector.isNull(i);
            }
        }
        return new BooleanVector(result);
    }
}
