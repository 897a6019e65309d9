package dev.faro.engine.vector;

import java.util.Objects;

/** A vector of VARCHAR values; a null element is SQL NULL. */
public final class StringVector implements Vector {

    private final DataType type;
    private final String[] values;

    public StringVector(DataType type, String[] values) {
        Objects.requireNonNull(type, "type is null");
        Objects.requireNonNull(values, "values is null");
        if (type.kind() != TypeKind.VARCHAR) {
            throw new IllegalArgumentException("StringVector holds VARCHAR: type=" + type);
        }
        this.type = type;
        this.values = values;
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
        return values[row] == null;
    }

    @Override
    public boolean mayHaveNulls() {
        return true;
    }

    /** The value at {@code row}, null for SQL NULL. */
    public String get(int row) {
        return values[row];
    }

    /** The backing array (data path: read only once shared). */
    public String[] values() {
        return values;
    }

    @Override
    public Object getObject(int row) {
        return values[row];
    }

    @Override
    public String toString() {
        return "StringVector[" + type + ", size=" + values.length + "]";
    }
}
