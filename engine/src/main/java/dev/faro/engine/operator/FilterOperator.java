package dev.faro.engine.operator;

import dev.faro.engine.expression.Expression;
import dev.faro.engine.expression.FilterEvaluator;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Vector;
import dev.faro.engine.vector.VectorBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Keeps the rows where the predicate is TRUE; passes a batch through untouched when every row qualifies. Late
 * materialisation: a column nothing above the filter reads ({@code unread}, from the plan) is not gathered; the output
 * batch carries the input's vector in its place, whose values at the output's rows are then unspecified.
 */
public final class FilterOperator extends StreamingOperator {

    private final FilterEvaluator filter;
    private final boolean[] unread;

    FilterOperator(Expression predicate, Schema input, boolean[] unread) {
        this.filter = new FilterEvaluator(predicate, input);
        this.unread = unread;
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
        int[] positions = filter.selection();
        List<Vector> columns = new ArrayList<>(batch.columnCount());
        for (int c = 0; c < batch.columnCount(); c++) {
            Vector column = batch.column(c);
            columns.add(unread[c] ? column : VectorBuilder.gather(column, positions, selected));
        }
        return new Batch(selected, columns);
    }

    /**
     * Filters batches of {@code input} by {@code predicate}; {@code unread[c]} says that nothing above reads input
     * column {@code c} (see {@link dev.faro.engine.exchange.RequiredColumns#unread}).
     */
    public static final class Factory implements OperatorFactory {
        private final Expression predicate;
        private final Schema input;
        private final boolean[] unread;

        public Factory(Expression predicate, Schema input, boolean[] unread) {
            if (unread.length != input.size()) {
                throw new IllegalArgumentException(
                        "one flag per input column: unread=" + unread.length + " columns=" + input.size());
            }
            this.predicate = predicate;
            this.input = input;
            this.unread = unread.clone();
        }

        /** Every column gathered (read above). */
        public Factory(Expression predicate, Schema input) {
            this(predicate, input, new boolean[input.size()]);
        }

        @Override
        public Operator create(int thread) {
            return new FilterOperator(predicate, input, unread);
        }

        @Override
        public String toString() {
            return "FilterOperator.Factory[predicate=" + predicate + ", unread=" + Arrays.toString(unread) + "]";
        }
    }
}
