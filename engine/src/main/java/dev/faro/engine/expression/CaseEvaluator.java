package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Vector;
import dev.faro.engine.vector.VectorBuilder;
import java.util.List;

/** CASE WHEN: evaluates every arm over the batch, then picks per row the value of the first true condition. */
final class CaseEvaluator implements Evaluator {

    private final Evaluator[] conditions;
    private final Evaluator[] values;
    private final DataType type;

    CaseEvaluator(List<Evaluator> conditions, List<Evaluator> values, DataType type) {
        this.conditions = conditions.toArray(new Evaluator[0]);
        this.values = values.toArray(new Evaluator[0]); // one more than conditions: the ELSE value
        this.type = type;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Vector evaluate(Batch batch) {
        int rows = batch.rowCount();
        int[] arm = new int[rows];
        java.util.Arrays.fill(arm, conditions.length);
        for (int c = conditions.length - 1; c >= 0; c--) {
            BooleanVector condition = (BooleanVector) conditions[c].evaluate(batch);
            for (int i = 0; i < rows; i++) {
                if (condition.get(i) && !condition.isNull(i)) {
                    arm[i] = c;
                }
            }
        }
        Vector[] armValues = new Vector[values.length];
        for (int v = 0; v < values.length; v++) {
            armValues[v] = Coercions.coerce(values[v].evaluate(batch), type, rows);
        }
        VectorBuilder out = VectorBuilder.create(type, rows);
        for (int i = 0; i < rows; i++) {
            out.copy(armValues[arm[i]], i, i);
        }
        return out.build();
    }
}
