package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.TypeKind;

/**
 * A compiled predicate producing a selection: the positions of the rows where it is TRUE (not FALSE, not NULL).
 * Thread-confined; the selection array is reused across batches.
 */
public final class FilterEvaluator {

    private final Evaluator predicate;
    private int[] selection = new int[1024];

    public FilterEvaluator(Expression predicate, Schema input) {
        this.predicate = ExpressionCompiler.compile(predicate, input);
        if (this.predicate.type().kind() != TypeKind.BOOLEAN) {
            throw new IllegalArgumentException("a filter needs a BOOLEAN predicate: predicate=" + predicate);
        }
    }

    /** Evaluates over {@code batch}; returns how many rows pass, their positions in {@link #selection()}. */
    public int filter(Batch batch) {
        int rows = batch.rowCount();
        if (selection.length < rows) {
            selection = new int[rows];
        }
        BooleanVector result = (BooleanVector) predicate.evaluate(batch);
        boolean[] values = result.values();
        boolean[] nulls = result.nulls();
        int count = 0;
        for (int i = 0; i < rows; i++) {
            if (values[i] && (nulls == null || !nulls[i])) {
                selection[count++] = i;
            }
        }
        return count;
    }

    /** The selected positions of the last {@link #filter} call (valid up to its return value). */
    public int[] selection() {
        return selection;
    }
}
