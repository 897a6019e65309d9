package dev.faro.engine.exchange;

import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.DoubleVector;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Vector;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A fixed-width column (BOOLEAN 1 byte, INTEGER and DATE 4, BIGINT, DECIMAL and DOUBLE 8; little-endian). Not
 * nullable: at a fixed offset in the row's first part. Nullable: in the second part, a one-byte indicator (1 present,
 * 0 NULL) followed by the value only when present. This class places the fields (a position per row, -1 for NULL);
 * the subclass of the storage kind moves the values, in one loop without a type switch.
 */
abstract sealed class FixedColumnCodec extends ColumnCodec {

    final boolean nullable;
    final int width;
    /** The field's offset in the row's first part (not nullable only). */
    private final int offset;

    private int[] positions = new int[1024];
    boolean[] nulls;

    FixedColumnCodec(DataType type, boolean nullable, int width, int offset) {
        super(type);
        this.nullable = nullable;
        this.width = width;
        this.offset = offset;
    }

    /** The codec of {@code type}'s storage kind; {@code offset} is used when not {@code nullable}. */
    static FixedColumnCodec of(DataType type, boolean nullable, int offset, int capacity) {
        return switch (type.kind()) {
            case BIGINT, DECIMAL -> new Longs(type, nullable, offset, capacity);
            case INTEGER, DATE -> new Ints(type, nullable, offset, capacity);
            case DOUBLE -> new Doubles(type, nullable, offset, capacity);
            case BOOLEAN -> new Booleans(type, nullable, offset, capacity);
            case VARCHAR -> throw new IllegalArgumentException("VARCHAR is not fixed-width");
        };
    }

    /** The bytes a value of {@code type} takes. */
    static int width(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> 1;
            case INTEGER, DATE -> 4;
            case BIGINT, DECIMAL, DOUBLE -> 8;
            case VARCHAR -> throw new IllegalArgumentException("VARCHAR is not fixed-width");
        };
    }

    @Override
    boolean variable() {
        return nullable;
    }

    @Override
    void addSizes(Vector vector, int from, int count, int[] sizes) {
        boolean[] isNull = nullFlags(vector);
        for (int r = from; r < from + count; r++) {
            sizes[r] += isNull != null && isNull[r] ? 1 : 1 + width;
        }
    }

    @Override
    void encode(
            Vector vector, int from, int count, MemorySegment[] payloads, int[] groupOf, int[] rowAt, int[] cursor) {
        int[] at = positions(from + count);
        boolean[] nullFlags = nullFlags(vector);
        if (nullable) {
            for (int r = from; r < from + count; r++) {
                int field = cursor[r];
                boolean isNull = nullFlags != null && nullFlags[r];
                payloads[groupOf[r]].set(BYTE, field, (byte) (isNull ? 0 : 1));
                at[r] = isNull ? -1 : field + 1;
                cursor[r] = isNull ? field + 1 : field + 1 + width;
            }
        } else {
            if (nullFlags != null) {
                for (int r = from; r < from + count; r++) {
                    if (nullFlags[r]) {
                        throw new IllegalStateException(
                                "a NULL in an exchanged column planned as not nullable: type=" + type);
                    }
                }
            }
            for (int r = from; r < from + count; r++) {
                at[r] = rowAt[r] + offset;
            }
        }
        write(vector, from, count, payloads, groupOf, at);
    }

    /**
     * The vector's null flags (null when no row is NULL), fetched once per call so the per-row loops read an array
     * instead of calling {@link Vector#isNull} through the interface, a call site every fixed-width kind shares.
     */
    private static boolean[] nullFlags(Vector vector) {
        return switch (vector) {
            case LongVector v -> v.nulls();
            case IntVector v -> v.nulls();
            case DoubleVector v -> v.nulls();
            case BooleanVector v -> v.nulls();
            case StringVector ignored -> throw new IllegalArgumentException("VARCHAR is not fixed-width");
        };
    }

    /** Writes the values of rows {@code [from, from+count)} at {@code at[r]} (skipping -1). */
    abstract void write(Vector vector, int from, int count, MemorySegment[] payloads, int[] groupOf, int[] at);

    @Override
    int fieldBytes(MemorySegment payload, long at) {
        return payload.get(BYTE, at) == 0 ? 1 : 1 + width;
    }

    @Override
    void decode(MemorySegment payload, int count, int[] rowAt, int[] cursor, int outRow) {
        int[] at = positions(count);
        if (nullable) {
            for (int r = 0; r < count; r++) {
                int field = cursor[r];
                boolean isNull = payload.get(BYTE, field) == 0;
                if (isNull) {
                    if (nulls == null) {
                        nulls = new boolean[capacity()];
                    }
                    nulls[outRow + r] = true;
                }
                at[r] = isNull ? -1 : field + 1;
                cursor[r] = isNull ? field + 1 : field + 1 + width;
            }
        } else {
            for (int r = 0; r < count; r++) {
                at[r] = rowAt[r] + offset;
            }
        }
        read(payload, count, at, outRow);
    }

    /** Reads the values of rows {@code [0, count)} from {@code at[r]} (skipping -1) into output rows from outRow. */
    abstract void read(MemorySegment payload, int count, int[] at, int outRow);

    abstract int capacity();

    private int[] positions(int rows) {
        if (positions.length < rows) {
            positions = new int[grown(positions.length, rows)];
        }
        return positions;
    }

    /** The null flags of the rows taken (null when none), and a fresh start for the next batch. */
    final boolean[] takeNulls() {
        boolean[] taken = nulls;
        nulls = null;
        return taken;
    }

    final void growNulls(int capacity) {
        if (nulls != null) {
            nulls = Arrays.copyOf(nulls, capacity);
        }
    }

    static final class Longs extends FixedColumnCodec {
        private long[] values;

        Longs(DataType type, boolean nullable, int offset, int capacity) {
            super(type, nullable, 8, offset);
            values = new long[capacity];
        }

        @Override
        void write(Vector vector, int from, int count, MemorySegment[] payloads, int[] groupOf, int[] at) {
            long[] source = ((LongVector) vector).values();
            for (int r = from; r < from + count; r++) {
                if (at[r] >= 0) {
                    payloads[groupOf[r]].set(LONG, at[r], source[r]);
                }
            }
        }

        @Override
        void read(MemorySegment payload, int count, int[] at, int outRow) {
            long[] out = values;
            for (int r = 0; r < count; r++) {
                if (at[r] >= 0) {
                    out[outRow + r] = payload.get(LONG, at[r]);
                }
            }
        }

        @Override
        int capacity() {
            return values.length;
        }

        @Override
        void ensureCapacity(int rows) {
            if (rows > values.length) {
                values = Arrays.copyOf(values, grown(values.length, rows));
                growNulls(values.length);
            }
        }

        @Override
        Vector take(int rows, int capacity) {
            Vector vector = new LongVector(type, values, takeNulls());
            values = new long[capacity];
            return vector;
        }
    }

    static final class Ints extends FixedColumnCodec {
        private int[] values;

        Ints(DataType type, boolean nullable, int offset, int capacity) {
            super(type, nullable, 4, offset);
            values = new int[capacity];
        }

        @Override
        void write(Vector vector, int from, int count, MemorySegment[] payloads, int[] groupOf, int[] at) {
            int[] source = ((IntVector) vector).values();
            for (int r = from; r < from + count; r++) {
                if (at[r] >= 0) {
                    payloads[groupOf[r]].set(INT, at[r], source[r]);
                }
            }
        }

        @Override
        void read(MemorySegment payload, int count, int[] at, int outRow) {
            int[] out = values;
            for (int r = 0; r < count; r++) {
                if (at[r] >= 0) {
                    out[outRow + r] = payload.get(INT, at[r]);
                }
            }
        }

        @Override
        int capacity() {
            return values.length;
        }

        @Override
        void ensureCapacity(int rows) {
            if (rows > values.length) {
                values = Arrays.copyOf(values, grown(values.length, rows));
                growNulls(values.length);
            }
        }

        @Override
        Vector take(int rows, int capacity) {
            Vector vector = new IntVector(type, values, takeNulls());
            values = new int[capacity];
            return vector;
        }
    }

    static final class Doubles extends FixedColumnCodec {
        private double[] values;

        Doubles(DataType type, boolean nullable, int offset, int capacity) {
            super(type, nullable, 8, offset);
            values = new double[capacity];
        }

        @Override
        void write(Vector vector, int from, int count, MemorySegment[] payloads, int[] groupOf, int[] at) {
            double[] source = ((DoubleVector) vector).values();
            for (int r = from; r < from + count; r++) {
                if (at[r] >= 0) {
                    payloads[groupOf[r]].set(DOUBLE, at[r], source[r]);
                }
            }
        }

        @Override
        void read(MemorySegment payload, int count, int[] at, int outRow) {
            double[] out = values;
            for (int r = 0; r < count; r++) {
                if (at[r] >= 0) {
                    out[outRow + r] = payload.get(DOUBLE, at[r]);
                }
            }
        }

        @Override
        int capacity() {
            return values.length;
        }

        @Override
        void ensureCapacity(int rows) {
            if (rows > values.length) {
                values = Arrays.copyOf(values, grown(values.length, rows));
                growNulls(values.length);
            }
        }

        @Override
        Vector take(int rows, int capacity) {
            Vector vector = new DoubleVector(type, values, takeNulls());
            values = new double[capacity];
            return vector;
        }
    }

    static final class Booleans extends FixedColumnCodec {
        private boolean[] values;

        Booleans(DataType type, boolean nullable, int offset, int capacity) {
            super(type, nullable, 1, offset);
            values = new boolean[capacity];
        }

        @Override
        void write(Vector vector, int from, int count, MemorySegment[] payloads, int[] groupOf, int[] at) {
            boolean[] source = ((BooleanVector) vector).values();
            for (int r = from; r < from + count; r++) {
                if (at[r] >= 0) {
                    payloads[groupOf[r]].set(BYTE, at[r], (byte) (source[r] ? 1 : 0));
                }
            }
        }

        @Override
        void read(MemorySegment payload, int count, int[] at, int outRow) {
            boolean[] out = values;
            for (int r = 0; r < count; r++) {
                if (at[r] >= 0) {
                    out[outRow + r] = payload.get(BYTE, at[r]) != 0;
                }
            }
        }

        @Override
        int capacity() {
            return values.length;
        }

        @Override
        void ensureCapacity(int rows) {
            if (rows > values.length) {
                values = Arrays.copyOf(values, grown(values.length, rows));
                growNulls(values.length);
            }
        }

        @Override
        Vector take(int rows, int capacity) {
            Vector vector = new BooleanVector(values, takeNulls());
            values = new boolean[capacity];
            return vector;
        }
    }
}
