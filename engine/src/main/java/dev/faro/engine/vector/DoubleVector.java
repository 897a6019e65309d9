package dev.faro.engine.vector;

import java.util.Objects;

/** A vector of {@code double} values: DOUBLE. A null {@code nulls} array means no row is NULL. */
public final class DoubleVector implements Vector {

    private final DataType type;
    private final double[] values;
    private final boolean[] nulls;

    public DoubleVector(DataType type, double[] values, boolean[] nulls) {
        Objects.requireNonNull(type, "type is null");
        Objects.requireNonNull(values, "values is null");
        if (type.kind() != TypeKind.DOUBLE) {
            throw new IllegalArgumentException("DoubleVector holds DOUBLE: type=" + type);
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
    public DoubleVector(DataType type, double[] values) {
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
    public double get(int row) {
        return values[row];
    }

    /** The backing array (data path: read only once shared). */
    public double[] values() {
        return values;
    }

    /** The backing null flags, or null when no row is NULL. */
    public boolean[] nulls() {
        return nulls;
    }

    @Override
    public Object getObject(int row) {
        return isNull(row) ? null : (Double) values[row];
    }

    @Override
    public String toString() {
        return "DoubleVector[" + type + ", size=" + values.length + "]";
    }
}
