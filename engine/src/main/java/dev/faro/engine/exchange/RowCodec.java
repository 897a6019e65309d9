package dev.faro.engine.exchange;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.DoubleVector;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Vector;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Fixed-width rows of a {@link Schema} for the shuffle layer's tuples:
 * <pre>
 *  0                 N = ceil(columns / 8)
 *  +-----------------+---------+---------+-----+
 *  | null bitmap     | field 0 | field 1 | ... |   one row, {@link #rowBytes()} bytes, no alignment
 *  +-----------------+---------+---------+-----+
 *  bit c of the bitmap (byte c / 8, bit c % 8) set: column c is NULL (its field bytes are unspecified)
 *  BOOLEAN 1 byte (0/1); INTEGER, DATE 4 bytes; BIGINT, DECIMAL (unscaled), DOUBLE 8 bytes; all little-endian
 *  VARCHAR(n): 2-byte length L, then L bytes (ISO-8859-1; TPC-H strings are ASCII), then n - L unspecified bytes
 * </pre>
 * Thread-confined (a scratch buffer for strings). Data path: encode allocates nothing; decode allocates the batch's
 * arrays and one String per VARCHAR value.
 */
public final class RowCodec {

    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Schema schema;
    private final int[] offsets;
    private final int rowBytes;
    private byte[] scratch = new byte[256];

    public RowCodec(Schema schema) {
        this.schema = schema;
        this.offsets = new int[schema.size()];
        int offset = (schema.size() + 7) / 8;
        for (int c = 0; c < schema.size(); c++) {
            offsets[c] = offset;
            offset += width(schema.type(c));
        }
        this.rowBytes = Math.max(1, offset);
    }

    static int width(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> 1;
            case INTEGER, DATE -> 4;
            case BIGINT, DECIMAL, DOUBLE -> 8;
            case VARCHAR -> 2 + type.maxLength();
        };
    }

    public int rowBytes() {
        return rowBytes;
    }

    public Schema schema() {
        return schema;
    }

    /** The byte offset of column {@code column}'s field within a row. */
    int offset(int column) {
        return offsets[column];
    }

    /** Encodes rows {@code [from, from+count)} of {@code batch} at the start of {@code out}. */
    public void encode(Batch batch, int from, int count, MemorySegment out) {
        int bitmapBytes = (schema.size() + 7) / 8;
        for (int r = 0; r < count; r++) {
            long row = (long) r * rowBytes;
            for (int b = 0; b < bitmapBytes; b++) {
                out.set(ValueLayout.JAVA_BYTE, row + b, (byte) 0);
            }
        }
        for (int c = 0; c < schema.size(); c++) {
            Vector vector = batch.column(c);
            long field = offsets[c];
            switch (vector) {
                case LongVector v -> {
                    long[] values = v.values();
                    for (int r = 0; r < count; r++) {
                        out.set(LONG, (long) r * rowBytes + field, values[from + r]);
                    }
                }
                case IntVector v -> {
                    int[] values = v.values();
                    for (int r = 0; r < count; r++) {
                        out.set(INT, (long) r * rowBytes + field, values[from + r]);
                    }
                }
                case DoubleVector v -> {
                    double[] values = v.values();
                    for (int r = 0; r < count; r++) {
                        out.set(DOUBLE, (long) r * rowBytes + field, values[from + r]);
                    }
                }
                case BooleanVector v -> {
                    boolean[] values = v.values();
                    for (int r = 0; r < count; r++) {
                        out.set(ValueLayout.JAVA_BYTE, (long) r * rowBytes + field, (byte) (values[from + r] ? 1 : 0));
                    }
                }
                case StringVector v ->
                    encodeStrings(v, from, count, out, field, schema.type(c).maxLength());
            }
            if (vector.mayHaveNulls()) {
                for (int r = 0; r < count; r++) {
                    if (vector.isNull(from + r)) {
                        long bitmapByte = (long) r * rowBytes + c / 8;
                        byte bits = out.get(ValueLayout.JAVA_BYTE, bitmapByte);
                        out.set(ValueLayout.JAVA_BYTE, bitmapByte, (byte) (bits | 1 << (c % 8)));
                    }
                }
            }
        }
    }

    private void encodeStrings(StringVector vector, int from, int count, MemorySegment out, long field, int max) {
        String[] values = vector.values();
        for (int r = 0; r < count; r++) {
            String value = values[from + r];
            long at = (long) r * rowBytes + field;
            if (value == null) {
                out.set(SHORT, at, (short) 0);
                continue;
            }
            int length = value.length();
            if (length > max) {
                throw new IllegalArgumentException("string longer than its VARCHAR: max=" + max + " length=" + length);
            }
            out.set(SHORT, at, (short) length);
            for (int i = 0; i < length; i++) {
                char ch = value.charAt(i);
                if (ch > 0xff) {
                    throw new IllegalArgumentException("non-Latin-1 character in an exchanged string: " + (int) ch);
                }
                out.set(ValueLayout.JAVA_BYTE, at + 2 + i, (byte) ch);
            }
        }
    }

    /** Decodes {@code count} rows at the start of {@code in} into a new batch. */
    public Batch decode(MemorySegment in, int count) {
        List<Vector> columns = new ArrayList<>(schema.size());
        for (int c = 0; c < schema.size(); c++) {
            DataType type = schema.type(c);
            long field = offsets[c];
            boolean[] nulls = null;
            for (int r = 0; r < count; r++) {
                byte bits = in.get(ValueLayout.JAVA_BYTE, (long) r * rowBytes + c / 8);
                if ((bits & 1 << (c % 8)) != 0) {
                    if (nulls == null) {
                        nulls = new boolean[count];
                    }
                    nulls[r] = true;
                }
            }
            columns.add(
                    switch (type.kind()) {
                        case BIGINT, DECIMAL -> {
                            long[] values = new long[count];
                            for (int r = 0; r < count; r++) {
                                values[r] = in.get(LONG, (long) r * rowBytes + field);
                            }
                            yield new LongVector(type, values, nulls);
                        }
                        case INTEGER, DATE -> {
                            int[] values = new int[count];
                            for (int r = 0; r < count; r++) {
                                values[r] = in.get(INT, (long) r * rowBytes + field);
                            }
                            yield new IntVector(type, values, nulls);
                        }
                        case DOUBLE -> {
                            double[] values = new double[count];
                            for (int r = 0; r < count; r++) {
                                values[r] = in.get(DOUBLE, (long) r * rowBytes + field);
                            }
                            yield new DoubleVector(type, values, nulls);
                        }
                        case BOOLEAN -> {
                            boolean[] values = new boolean[count];
                            for (int r = 0; r < count; r++) {
                                values[r] = in.get(ValueLayout.JAVA_BYTE, (long) r * rowBytes + field) != 0;
                            }
                            yield new BooleanVector(values, nulls);
                        }
                        case VARCHAR -> {
                            String[] values = new String[count];
                            for (int r = 0; r < count; r++) {
                                if (nulls != null && nulls[r]) {
                                    continue;
                                }
                                long at = (long) r * rowBytes + field;
                                int length = Short.toUnsignedInt(in.get(SHORT, at));
                                if (scratch.length < length) {
                                    scratch = new byte[length];
                                }
                                MemorySegment.copy(in, ValueLayout.JAVA_BYTE, at + 2, scratch, 0, length);
                                values[r] = new String(scratch, 0, length, StandardCharsets.ISO_8859_1);
                            }
                            yield new StringVector(type, values);
                        }
                    });
        }
        return new Batch(count, columns);
    }
}
