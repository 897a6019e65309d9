package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Vector;
import java.util.List;

/** AND, OR (SQL three-valued logic) and NOT over BOOLEAN terms. */
final class LogicalEvaluator implements Evaluator {

    /** Which connective. */
    enum Kind {
        AND,
        OR,
        NOT
    }

    private final Kind kind;
    private final Evaluator[] terms;

    LogicalEvaluator(Kind kind, List<Evaluator> terms) {
        this.kind = kind;
        this.terms = terms.toArray(new Evaluator[0]);
    }

    @Override
    public DataType type() {
        return DataType.BOOLEAN;
    }

    @Override
    public Vector evaluate(Batch batch) {
        int rows = batch.rowCount();
        if (kind == Kind.NOT) {
            BooleanVector operand = (BooleanVector) terms[0].evaluate(batch);
            boolean[] values = operand.values();
            boolean[] result = new boolean[rows];
            for (int i = 0; i < rows; i++) {
                result[i] = !values[i];
            }
            return new BooleanVector(result, Coercions.copyNulls(operand, rows));
        }
        boolean isAnd = kind == Kind.AND;
        boolean[] result = new boolean[rows];
        java.util.Arrays.fill(result, 0, rows, isAnd);
        boolean[] nulls = null;
        for (Evaluator term : terms) {
            BooleanVector vector = (BooleanVector) term.evaluate(batch);
            boolean[] values = vector.values();
            boolean[] termNulls = vector.nulls();
            for (int i = 0; i < rows; i++) {
                if (termNulls != null && termNulls[i]) {
                    if (result[i] == isAnd) { // not yet decided by a FALSE (AND) or TRUE (OR)
                        if (nulls == null) {
                            nulls = new boolean[rows];
                        }
                        nulls[i] = true;
                    }
                } else if (values[i] != isAnd) {
                    result[i] = !isAnd; // decided
                    if (nulls != null) {
                        nulls[i] = false;
                    }
                }
            }
        }
        return new BooleanVector(result, nulls);
    }
}
