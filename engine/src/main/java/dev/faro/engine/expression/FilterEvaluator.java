package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.TypeKind;

/**
 * A compiled predicate producing a selection: the positions of the rows where it is TRUE (not FALSE, not NULL). The
 * predicate's AND terms run as {@link Conjunct} selection kernels one after the other, each looking only at the rows
 * the ones before it kept (a term that no specialised kernel covers is evaluated by its {@link Evaluator}).
 * Thread-confined; the selection array is reused across batches.
 *
 * <p>Data path: allocation-free after warm-up, except what a generic term's evaluator allocates.
 */
public final class FilterEvaluator {

    private final Conjunct[] conjuncts;
    private int[] selection = new int[1024];

    public FilterEvaluator(Expression predicate, Schema input) {
        if (ExpressionTypes.typeOf(predicate, input).kind() != TypeKind.BOOLEAN) {
            throw new IllegalArgumentException("a filter needs a BOOLEAN predicate: predicate=" + predicate);
        }
        this.conjuncts = Conjuncts.compile(predicate, input);
    }

    /** Evaluates over {@code batch}; returns how many rows pass, their positions in {@link #selection()}. */
    public int filter(Batch batch) {
        int rows = batch.rowCount();
        if (selection.length < rows) {
            selection = new int[rows];
        }
        int[] selection = this.selection;
        if (conjuncts.length == 0) { // TRUE
            for (int i = 0; i < rows; i++) {
                selection[i] = i;
            }
            return rows;
        }
        int count = rows == 0 ? 0 : conjuncts[0].narrowAll(batch, selection, rows);
        for (int c = 1; c < conjuncts.length && count > 0; c++) {
            count = conjuncts[c].narrow(batch, selection, count);
        }
        return count;
    }

    /** The selected positions of the last {@link #filter} call (valid up to its return value). */
    public int[] selection() {
        return selection;
    }
}
