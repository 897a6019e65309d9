package dev.faro.engine.vector;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code rowCount} rows in column vectors. Each vector holds at least {@code rowCount} rows; rows beyond it are
 * garbage. Batches are immutable once handed to another operator.
 */
public record Batch(int rowCount, List<Vector> columns) {

    public Batch {
        Objects.requireNonNull(columns, "columns is null");
        columns = List.copyOf(columns);
        if (rowCount < 0) {
            throw new IllegalArgumentException("negative row count: rowCount=" + rowCount);
        }
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).size() < rowCount) {
                throw new IllegalArgumentException("column shorter than the batch: column=" + i + " size="
                        + columns.get(i).size() + " rowCount=" + rowCount);
            }
        }
    }

    public static Batch of(int rowCount, Vector... columns) {
        return new Batch(rowCount, List.of(columns));
    }

    public Vector column(int index) {
        return columns.get(index);
    }

    public int columnCount() {
        return columns.size();
    }

    /** Row {@code row} boxed (see {@link Vector#getObject}); tests and result printing only. */
    public List<Object> row(int row) {
        List<Object> values = new ArrayList<>(columns.size());
        for (Vector column : columns) {
            values.add(column.getObject(row));
        }
        return values;
    }

    /** All rows boxed; tests and result printing only. */
    public List<List<Object>> rows() {
        List<List<Object>> rows = new ArrayList<>(rowCount);
        for (int row = 0; row < rowCount; row++) {
            rows.add(row(row));
        }
        return rows;
    }
}
