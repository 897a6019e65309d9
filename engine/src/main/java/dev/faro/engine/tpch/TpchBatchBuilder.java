package dev.faro.engine.tpch;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Vector;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies generated TPC-H entities into column arrays of one batch (morsel) at a time. Thread-confined; one per
 * generating thread. Decimals are rounded from the generator's two-decimal doubles to exact cents; a low-cardinality
 * string column's equal values share one instance ({@link StringDictionary}).
 */
final class TpchBatchBuilder<E extends TpchEntity> {

    private final List<TpchColumn<E>> columns;
    private final DataType[] types;
    private final int batchRows;
    /** Per VARCHAR column, its dictionary (see {@link StringDictionary}); null for other columns. */
    private final StringDictionary[] dictionaries;

    private final List<Batch> batches = new ArrayList<>();
    private Object[] arrays;
    private int rows;

    TpchBatchBuilder(TpchTable<E> table, int batchRows) {
        this.columns = table.getColumns();
        this.types = columns.stream().map(TpchTables::type).toArray(DataType[]::new);
        this.batchRows = batchRows;
        this.dictionaries = new StringDictionary[types.length];
        for (int c = 0; c < types.length; c++) {
            if (types[c].kind() == dev.faro.engine.vector.TypeKind.VARCHAR) {
                dictionaries[c] = new StringDictionary();
            }
        }
        this.arrays = newArrays();
    }

    void add(E entity) {
        for (int c = 0; c < types.length; c++) {
            TpchColumn<E> column = columns.get(c);
            switch (types[c].kind()) {
                case BIGINT -> ((long[]) arrays[c])[rows] = column.getIdentifier(entity);
                case INTEGER -> ((int[]) arrays[c])[rows] = column.getInteger(entity);
                case DATE -> ((int[]) arrays[c])[rows] = column.getDate(entity);
                case DECIMAL -> ((long[]) arrays[c])[rows] = Math.round(column.getDouble(entity) * 100);
                case VARCHAR -> ((String[]) arrays[c])[rows] = dictionaries[c].share(column.getString(entity));
                default -> throw new IllegalStateException("no TPC-H column has type " + types[c]);
            }
        }
        if (++rows == batchRows) {
            flush();
        }
    }

    /** The batches built so far, the partial last one included. */
    List<Batch> finish() {
        if (rows > 0) {
            flush();
        }
        return batches;
    }

    private void flush() {
        Vector[] vectors = new Vector[types.length];
        for (int c = 0; c < types.length; c++) {
            DataType type = types[c];
            vectors[c] = switch (type.kind()) {
                case BIGINT, DECIMAL -> new LongVector(type, trim((long[]) arrays[c]), null);
                case INTEGER, DATE -> new IntVector(type, trim((int[]) arrays[c]), null);
                case VARCHAR -> new StringVector(type, trim((String[]) arrays[c]));
                default -> throw new IllegalStateException("no TPC-H column has type " + type);
            };
        }
        batches.add(Batch.of(rows, vectors));
        rows = 0;
        arrays = newArrays();
    }

    private long[] trim(long[] values) {
        return rows == values.length ? values : java.util.Arrays.copyOf(values, rows);
    }

    private int[] trim(int[] values) {
        return rows == values.length ? values : java.util.Arrays.copyOf(values, rows);
    }

    private String[] trim(String[] values) {
        return rows == values.length ? values : java.util.Arrays.copyOf(values, rows);
    }

    private Object[] newArrays() {
        Object[] fresh = new Object[types.length];
        for (int c = 0; c < types.length; c++) {
            fresh[c] = switch (types[c].kind()) {
                case BIGINT, DECIMAL -> new long[batchRows];
                case INTEGER, DATE -> new int[batchRows];
                case VARCHAR -> new String[batchRows];
                default -> throw new IllegalStateException("no TPC-H column has type " + types[c]);
            };
        }
        return fresh;
    }
}
