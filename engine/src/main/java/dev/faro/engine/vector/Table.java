package dev.faro.engine.vector;

import java.util.List;
import java.util.Objects;

/** A node's in-memory table: its schema and its batches, each batch one morsel for the scan. */
public record Table(String name, Schema schema, List<Batch> batches) {

    public Table {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(schema, "schema is null");
        Objects.requireNonNull(batches, "batches is null");
        batches = List.copyOf(batches);
        for (Batch batch : batches) {
            if (batch.columnCount() != schema.size()) {
                throw new IllegalArgumentException("batch column count differs from the schema: table=" + name
                        + " columns=" + batch.columnCount() + " schema=" + schema.size());
            }
            for (int i = 0; i < schema.size(); i++) {
                if (!batch.column(i).type().equals(schema.type(i))) {
                    throw new IllegalArgumentException("column type differs from the schema: table=" + name
                            + " column=" + schema.column(i).name() + " vector="
                            + batch.column(i).type()
                            + " schema=" + schema.type(i));
                }
            }
        }
    }

    /** Total rows over all batches. */
    public long rowCount() {
        long rows = 0;
        for (Batch batch : batches) {
            rows += batch.rowCount();
        }
        return rows;
    }
}
