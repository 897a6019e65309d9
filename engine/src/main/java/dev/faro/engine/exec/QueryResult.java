package dev.faro.engine.exec;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Values;
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

    /**
     * The first {@code maxRows} rows as an aligned text table with a header, DECIMAL and DATE values rendered (see
     * {@link Values#format}); printing only.
     */
    public String format(int maxRows) {
        int columns = schema.size();
        List<String[]> cells = new ArrayList<>();
        cells.add(schema.names().toArray(String[]::new));
        int[] widths = new int[columns];
        for (List<Object> row : rows()) {
            if (cells.size() > maxRows) {
                break;
            }
            String[] line = new String[columns];
            for (int c = 0; c < columns; c++) {
                line[c] = Values.format(schema.type(c), row.get(c));
            }
            cells.add(line);
        }
        for (String[] line : cells) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.max(widths[c], line[c].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] line : cells) {
            for (int c = 0; c < columns; c++) {
                text.append(c == 0 ? "" : " | ").append(String.format("%-" + widths[c] + "s", line[c]));
            }
            text.append('\n');
        }
        long rows = rowCount();
        if (rows > maxRows) {
            text.append("... ").append(rows - maxRows).append(" more rows\n");
        }
        return text.toString();
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
