package dev.faro.engine.operator;

import dev.faro.engine.plan.SortKey;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Vector;
import dev.faro.engine.vector.VectorBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Sort and top-N, a sink: threads collect rows; {@link Factory#complete} concatenates them, sorts a row index and
 * emits the rows in order (the first {@code limit} of them for a top-N) as batches of up to 16,384 rows.
 */
public final class SortOperator implements Operator {

    private final Factory factory;
    private final List<Batch> batches = new ArrayList<>();
    private boolean finished;

    private SortOperator(Factory factory) {
        this.factory = factory;
    }

    @Override
    public boolean needsInput() {
        return !finished;
    }

    @Override
    public void addInput(Batch batch) {
        batches.add(batch);
    }

    @Override
    public Batch getOutput() {
        return null;
    }

    @Override
    public void finish() {
        if (!finished) {
            finished = true;
            factory.collected.add(batches);
        }
    }

    @Override
    public boolean isFinished() {
        return finished;
    }

    /** Concatenates {@code batches} of {@code schema} into one batch. */
    static Batch concatenate(Schema schema, List<Batch> batches) {
        int total = 0;
        for (Batch batch : batches) {
            total += batch.rowCount();
        }
        List<Vector> columns = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            VectorBuilder builder = VectorBuilder.create(schema.type(c), total);
            int row = 0;
            for (Batch batch : batches) {
                builder.copyRange(batch.column(c), 0, batch.rowCount(), row);
                row += batch.rowCount();
            }
            columns.add(builder.build());
        }
        return new Batch(total, columns);
    }

    /** A sort (limit negative) or top-N of one plan node; {@link #output()} after {@link #complete}. */
    public static final class Factory implements SinkFactory {
        private final Schema schema;
        private final List<SortKey> keys;
        private final long limit;
        private final Queue<List<Batch>> collected = new ConcurrentLinkedQueue<>();
        private volatile List<Batch> output;

        public Factory(Schema schema, List<SortKey> keys, long limit) {
            this.schema = schema;
            this.keys = List.copyOf(keys);
            this.limit = limit;
            for (SortKey key : keys) {
                schema.indexOf(key.column());
            }
        }

        @Override
        public Operator create(int thread) {
            return new SortOperator(this);
        }

        @Override
        public void complete(int threads) {
            List<Batch> all = new ArrayList<>();
            for (List<Batch> batches : collected) {
                all.addAll(batches);
            }
            Batch rows = concatenate(schema, all);
            int n = rows.rowCount();
            int[] index = new int[n];
            for (int i = 0; i < n; i++) {
                index[i] = i;
            }
            int keep = limit < 0 ? n : (int) Math.min(n, limit);
            new RowComparator(rows, schema, keys).sortFirst(index, n, keep);
            List<Batch> result = new ArrayList<>();
            int[] positions = new int[Math.min(keep, HashAggregationOperator.OUTPUT_BATCH_ROWS)];
            for (int from = 0; from < keep; from += HashAggregationOperator.OUTPUT_BATCH_ROWS) {
                int count = Math.min(HashAggregationOperator.OUTPUT_BATCH_ROWS, keep - from);
                System.arraycopy(index, from, positions, 0, count);
                List<Vector> columns = new ArrayList<>();
                for (Vector column : rows.columns()) {
                    columns.add(VectorBuilder.gather(column, positions, count));
                }
                result.add(new Batch(count, columns));
            }
            output = List.copyOf(result);
        }

        public List<Batch> output() {
            List<Batch> result = output;
            if (result == null) {
                throw new IllegalStateException("the sort has not completed");
            }
            return result;
        }
    }
}
