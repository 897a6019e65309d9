package dev.faro.engine.vector;

import java.util.Objects;

/** A vector of {@code long} values: BIGINT, DECIMAL. A null {@code nulls} array means no row is NULL. */
public final class LongVector implements Vector {

    private final DataType type;
    private final long[] values;
    private final boolean[] nulls;

    public LongVector(DataType type, long[] values, boolean[] nulls) {
        Objects.requireNonNull(type, "type is null");
        Objects.requireNonNull(values, "values is null");
        if (!type.isLong()) {
            throw new IllegalArgumentException("LongVector holds BIGINT or DECIMAL: type=" + type);
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
    public LongVector(DataType type, long[] values) {
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
    public long get(int row) {
        return values[row];
    }

    /** The backing array (data path: read only once shared). */
    public long[] values() {
        return values;
    }

    /** The backing null flags, or null when no row is NULL. */
    public boolean[] nulls() {
        return nulls;
    }

    @Override
    public Object getObject(int row) {
        return isNull(row) ? null : (Long) values[row];
    }

    @Override
    public String toString() {
        return "LongVector[" + type + ", size=" + values.length + "]";
    }
}
