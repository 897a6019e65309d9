package dev.faro.engine.vector;

import java.util.Objects;

/** A vector of BOOLEAN values. A null {@code nulls} array means no row is NULL. */
public final class BooleanVector implements Vector {

    private final boolean[] values;
    private final boolean[] nulls;

    public BooleanVector(boolean[] values, boolean[] nulls) {
        Objects.requireNonNull(values, "values is null");
        if (nulls != null && nulls.length < values.length) {
            throw new IllegalArgumentException(
                    "nulls shorter than values: nulls=" + nulls.length + " values=" + values.length);
        }
        this.values = values;
        this.nulls = nulls;
    }

    public BooleanVector(boolean[] values) {
        this(values, null);
    }

    @Override
    public DataType type() {
        return DataType.BOOLEAN;
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
    public boolean get(int row) {
        return values[row];
    }

    public boolean[] values() {
        return values;
    }

    /** The backing null flags, or null when no row is NULL. */
    public boolean[] nulls() {
        return nulls;
    }

    @Override
    public Object getObject(int row) {
        return isNull(row) ? null : (Boolean) values[row];
    }

    @Override
    public String toString() {
        return "BooleanVector[size=" + values.length + "]";
    }
}
