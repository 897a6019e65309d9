package dev.faro.engine.vector;

import java.util.Arrays;

/**
 * Builds one vector row by row or by bulk copies, growing as needed. Thread-confined. Data path: copies allocate
 * nothing per row (the arrays double when full).
 */
public final class VectorBuilder {

    private final DataType type;
    private long[] longs;
    private int[] ints;
    private double[] doubles;
    private String[] strings;
    private boolean[] booleans;
    private boolean[] nulls;
    private boolean anyNull;
    private int capacity;

    private VectorBuilder(DataType type, int capacity) {
        this.type = type;
        this.capacity = Math.max(capacity, 16);
        switch (type.kind()) {
            case BIGINT, DECIMAL -> longs = new long[this.capacity];
            case INTEGER, DATE -> ints = new int[this.capacity];
            case DOUBLE -> doubles = new double[this.capacity];
            case VARCHAR -> strings = new String[this.capacity];
            case BOOLEAN -> booleans = new boolean[this.capacity];
        }
    }

    /** A builder of {@code type} with room for {@code capacity} rows before it grows. */
    public static VectorBuilder create(DataType type, int capacity) {
        return new VectorBuilder(type, capacity);
    }

    public DataType type() {
        return type;
    }

    /** Makes room for row {@code row}. */
    public void ensureCapacity(int rows) {
        if (rows <= capacity) {
            return;
        }
        int grown = Math.max(rows, capacity * 2);
        switch (type.kind()) {
            case BIGINT, DECIMAL -> longs = Arrays.copyOf(longs, grown);
            case INTEGER, DATE -> ints = Arrays.copyOf(ints, grown);
            case DOUBLE -> doubles = Arrays.copyOf(doubles, grown);
            case VARCHAR -> strings = Arrays.copyOf(strings, grown);
            case BOOLEAN -> booleans = Arrays.copyOf(booleans, grown);
        }
        if (nulls != null) {
            nulls = Arrays.copyOf(nulls, grown);
        }
        capacity = grown;
    }

    /** Copies row {@code sourceRow} of {@code source} (of this builder's storage kind) into row {@code row}. */
    public void copy(Vector source, int sourceRow, int row) {
        ensureCapacity(row + 1);
        if (source.isNull(sourceRow)) {
            setNull(row);
            return;
        }
        switch (source) {
            case LongVector v -> longs[row] = v.get(sourceRow);
            case IntVector v -> ints[row] = v.get(sourceRow);
            case DoubleVector v -> doubles[row] = v.get(sourceRow);
            case StringVector v -> strings[row] = v.get(sourceRow);
            case BooleanVector v -> booleans[row] = v.get(sourceRow);
        }
    }

    /** Copies the rows {@code positions[0..count)} of {@code source} into rows {@code [row, row+count)}. */
    public void gather(Vector source, int[] positions, int count, int row) {
        ensureCapacity(row + count);
        switch (source) {
            case LongVector v -> {
                long[] values = v.values();
                for (int i = 0; i < count; i++) {
                    longs[row + i] = values[positions[i]];
                }
            }
            case IntVector v -> {
                int[] values = v.values();
                for (int i = 0; i < count; i++) {
                    ints[row + i] = values[positions[i]];
                }
            }
            case DoubleVector v -> {
                double[] values = v.values();
                for (int i = 0; i < count; i++) {
                    doubles[row + i] = values[positions[i]];
                }
            }
            case StringVector v -> {
                String[] values = v.values();
                for (int i = 0; i < count; i++) {
                    strings[row + i] = values[positions[i]];
                }
            }
            case BooleanVector v -> {
                boolean[] values = v.values();
                for (int i = 0; i < count; i++) {
                    booleans[row + i] = values[positions[i]];
                }
            }
        }
        if (source.mayHaveNulls() && !(source instanceof StringVector)) {
            for (int i = 0; i < count; i++) {
                if (source.isNull(positions[i])) {
                    setNull(row + i);
                }
            }
        }
    }

    /** Copies rows {@code [from, from+count)} of {@code source} into rows {@code [row, row+count)}. */
    public void copyRange(Vector source, int from, int count, int row) {
        ensureCapacity(row + count);
        switch (source) {
            case LongVector v -> System.arraycopy(v.values(), from, longs, row, count);
            case IntVector v -> System.arraycopy(v.values(), from, ints, row, count);
            case DoubleVector v -> System.arraycopy(v.values(), from, doubles, row, count);
            case StringVector v -> System.arraycopy(v.values(), from, strings, row, count);
            case BooleanVector v -> System.arraycopy(v.values(), from, booleans, row, count);
        }
        if (source.mayHaveNulls() && !(source instanceof StringVector)) {
            for (int i = 0; i < count; i++) {
                if (source.isNull(from + i)) {
                    setNull(row + i);
                }
            }
        }
    }

    public void setNull(int row) {
        ensureCapacity(row + 1);
        if (nulls == null) {
            nulls = new boolean[capacity];
        }
        nulls[row] = true;
        anyNull = true;
        if (strings != null) {
            strings[row] = null;
        }
    }

    public void setLong(int row, long value) {
        ensureCapacity(row + 1);
        longs[row] = value;
    }

    public void setInt(int row, int value) {
        ensureCapacity(row + 1);
        ints[row] = value;
    }

    public void setDouble(int row, double value) {
        ensureCapacity(row + 1);
        doubles[row] = value;
    }

    public void setString(int row, String value) {
        ensureCapacity(row + 1);
        strings[row] = value;
    }

    public void setBoolean(int row, boolean value) {
        ensureCapacity(row + 1);
        booleans[row] = value;
    }

    /** The vector built so far (the builder must not be used afterwards). */
    public Vector build() {
        boolean[] n = anyNull ? nulls : null;
        return switch (type.kind()) {
            case BIGINT, DECIMAL -> new LongVector(type, longs, n);
            case INTEGER, DATE -> new IntVector(type, ints, n);
            case DOUBLE -> new DoubleVector(type, doubles, n);
            case VARCHAR -> new StringVector(type, strings);
            case BOOLEAN -> new BooleanVector(booleans, n);
        };
    }

    /** A new vector holding rows {@code positions[0..count)} of {@code source}. */
    public static Vector gather(Vector source, int[] positions, int count) {
        VectorBuilder builder = new VectorBuilder(source.type(), count);
        builder.gather(source, positions, count, 0);
        return builder.build();
    }
}
