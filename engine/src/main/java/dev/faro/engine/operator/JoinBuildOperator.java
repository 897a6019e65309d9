package dev.faro.engine.operator;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** The build sink of a hash join: collects the build rows; {@link Factory#complete} builds the shared table. */
public final class JoinBuildOperator implements Operator {

    private final Factory factory;
    private final List<Batch> batches = new ArrayList<>();
    private boolean finished;

    private JoinBuildOperator(Factory factory) {
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

    /** Collects the build side of one join; {@link HashJoinProbeOperator.Factory} reads its table. */
    public static final class Factory implements SinkFactory {
        private final Schema schema;
        private final int[] keyColumns;
        private final Queue<List<Batch>> collected = new ConcurrentLinkedQueue<>();
        private volatile JoinHashTable table;

        private final int filterMinRows;
        private final boolean bitmaps;

        public Factory(Schema schema, List<String> keys) {
            this(schema, keys, JoinHashTable.FILTER_MIN_ROWS);
        }

        /** A build whose table gets a {@link JoinFilter} from {@code filterMinRows} rows on (tests choose). */
        Factory(Schema schema, List<String> keys, int filterMinRows) {
            this(schema, keys, filterMinRows, true);
        }

        /** {@link #Factory(Schema, List, int)}, and whether the table may have a {@link KeyBitmap} (tests choose). */
        Factory(Schema schema, List<String> keys, int filterMinRows, boolean bitmaps) {
            this.filterMinRows = filterMinRows;
            this.bitmaps = bitmaps;
            this.schema = schema;
            this.keyColumns = new int[keys.size()];
            for (int k = 0; k < keyColumns.length; k++) {
                keyColumns[k] = schema.indexOf(keys.get(k));
            }
        }

        @Override
        public Operator create(int thread) {
            return new JoinBuildOperator(this);
        }

        @Override
        public void complete(int threads) {
            List<Batch> all = new ArrayList<>();
            for (List<Batch> batches : collected) {
                all.addAll(batches);
            }
            table = JoinHashTable.build(schema, all, keyColumns, threads, filterMinRows, bitmaps);
        }

        JoinHashTable table() {
            JoinHashTable result = table;
            if (result == null) {
                throw new IllegalStateException("the join build has not completed");
            }
            return result;
        }

        public Schema schema() {
            return schema;
        }
    }
}
