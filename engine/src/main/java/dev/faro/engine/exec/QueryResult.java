package dev.faro.engine.exec;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * A node's result of a query: the output rows in batches (in order when the plan ends in a sort or top-N; empty on
 * nodes other than 0 when the plan gathers), and statistics.
 */
public record QueryResult(Schema schema, List<Batch> batches, QueryStatistics statistics) {

    public QueryResult {
        batches = List.copyOf(batches);
    }

    public long rowCount() {
        long rows = 0;
        for (Batch batch : batches) {
            rows += batch.rowCount();
        }
        return rows;
    }

    /** All rows boxed, in order (tests and printing). */
    public List<List<Object>> rows() {
        List<List<Object>> rows = new ArrayList<>();
        for (Batch batch : batches) {
            rows.addAll(batch.rows());
        }
        return rows;
    }
}
