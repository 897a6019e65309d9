package dev.faro.engine.operator;

import dev.faro.engine.expression.Expression;
import dev.faro.engine.expression.FilterEvaluator;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Vector;
import dev.faro.engine.vector.VectorBuilder;
import java.util.ArrayList;
import java.util.List;

/** Keeps the rows where the predicate is TRUE; passes a batch through untouched when every row qualifies. */
public final class FilterOperator extends StreamingOperator {

    private final FilterEvaluator filter;

    FilterOperator(Expression predicate, Schema input) {
        this.filter = new FilterEvaluator(predicate, input);
    }

    @Override
    protected Batch process(Batch batch) {
        int selected = filter.filter(batch);
        if (selected == batch.rowCount()) {
            return batch;
        }
        if (selected == 0) {
            return null;
        }
        return gather(batch, filter.selection(), selected);
    }

    /** A new batch of the rows {@code positions[0..count)} of {@code batch}. */
    static Batch gather(Batch batch, int[] positions, int count) {
        List<Vector> columns = new ArrayList<>(batch.columnCount());
        for (Vector column : batch.columns()) {
            columns.add(VectorBuilder.gather(column, positions, count));
        }
        return new Batch(count, columns);
    }

    /** Filters batches of {@code input} by {@code predicate}. */
    public record Factory(Expression predicate, Schema input) implements OperatorFactory {
        @Override
        public Operator create(int thread) {
            return new FilterOperator(predicate, input);
        }
    }
}
