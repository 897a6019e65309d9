package dev.faro.engine.vector;

import java.util.Objects;

/** A vector of {@code int} values: INTEGER, DATE. A null {@code nulls} array means no row is NULL. */
public final class IntVector implements Vector {

    private final DataType type;
    private final int[] values;
    private final boolean[] nulls;

    public IntVector(DataType type, int[] values, boolean[] nulls) {
        Objects.requireNonNull(type, "type is null");
        Objects.requireNonNull(values, "values is null");
        if (!type.isInt()) {
            throw new IllegalArgumentException("IntVector holds INTEGER or DATE: type=" + type);
        }
        if (nulls != null && nulls.length < values.length) {
            throw new IllegalArgumentException(
                    "nulls shorter than values: nulls=" + nulls.length + " values=" + values.length);
        }
        this.type = type;
        this.values = values;
        this.nulls = nulls;
    }

    /** A vector without NULLs. */
    public IntVector(DataType type, int[] values) {
        this(type, values, null);
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public boolean isNull(int row) {
        return nulls != null && nulls[row];
    }

    @Override
    public boolean mayHaveNulls() {
        return nulls != null;
    }

    /** The value at {@code row}; unspecified when the row is NULL. */
    public int get(int row) {
        return values[row];
    }

    /** The backing array (data path: read only once shared). */
    public int[] values() {
        return values;
    }

    /** The backing null flags, or null when no row is NULL. */
    public boolean[] nulls() {
        return nulls;
    }

    @Override
    public Object getObject(int row) {
        return isNull(row) ? null : (Integer) values[row];
    }

    @Override
    public String toString() {
        return "IntVector[" + type + ", size=" + values.length + "]";
    }
}
