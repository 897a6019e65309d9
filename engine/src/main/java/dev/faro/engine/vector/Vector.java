package dev.faro.engine.vector;

/**
 * A column of values of one {@link DataType}. A vector may be longer than the batch holding it ({@link #size()} is its
 * capacity); the batch's row count says how many rows are valid. The backing arrays are exposed for the data path and
 * must not be modified once the vector is handed to another operator.
 */
public sealed interface Vector permits LongVector, IntVector, DoubleVector, StringVector, BooleanVector {

    DataType type();

    /** Capacity: the number of rows the backing array holds (at least the batch's row count). */
    int size();

    /** Whether the value at {@code row} is SQL NULL. */
    boolean isNull(int row);

    /** Whether any row may be NULL (false guarantees {@link #isNull} is false everywhere). */
    boolean mayHaveNulls();

    /**
     * The value at {@code row} boxed ({@code Long}, {@code Integer}, {@code Double}, {@code String}, {@code Boolean})
     * or null for SQL NULL. Coordination and tests only: allocates.
     */
    Object getObject(int row);

    /** A new empty vector of {@code type} for {@code capacity} rows, with a null array when {@code nullable}. */
    static Vector allocate(DataType type, int capacity, boolean nullable) {
        boolean[] nulls = nullable ? new boolean[capacity] : null;
        return switch (type.kind()) {
            case BIGINT, DECIMAL -> new LongVector(type, new long[capacity], nulls);
            case INTEGER, DATE -> new IntVector(type, new int[capacity], nulls);
            case DOUBLE -> new DoubleVector(type, new double[capacity], nulls);
            case VARCHAR -> new StringVector(type, new String[capacity]);
            case BOOLEAN -> new BooleanVector(new boolean[capacity], nulls);
        };
    }
}
