package dev.faro.engine.exchange;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.DoubleVector;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.TypeKind;
import dev.faro.engine.vector.Vector;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The exchange's row format, VLDB16 §3.2.1 (Fig. 8): densely packed rows of a {@link Schema}, specialised to it once
 * (a {@link ColumnCodec} per column, so no per-value type switch), in three parts:
 * <pre>
 *  +------------------------------+-----------------------------------+------------------------------------+
 *  | fixed-width, not nullable    | nullable fixed-width              | variable length (VARCHAR)          |
 *  | by width (8, 4, 1 bytes),    | per column: 1-byte indicator      | per column: 2-byte length L        |
 *  | then schema order            | (1 present, 0 NULL), the value    | (0xffff: NULL), then L bytes       |
 *  |                              | only when present; schema order   | (ISO-8859-1); schema order         |
 *  +------------------------------+-----------------------------------+------------------------------------+
 *  all little-endian, no alignment, no padding; rows follow each other in a buffer, each whole
 * </pre>
 * A row is as long as its values: a VARCHAR travels with its real length, a NULL with one byte, a pruned column (one
 * nothing reads after the exchange, see {@link RequiredColumns}) not at all: decoded batches hold an all-NULL
 * vector in its place, so the schema stays the plan's. Which fixed-width
 * columns may be NULL is decided by the plan ({@link Nullability}); a NULL in a column planned as not nullable fails
 * loudly. Encoding is column at a time into the buffers of the rows' groups; decoding walks a buffer's rows once
 * for their starts (only when the schema has a variable part), then decodes column at a time.
 *
 * <p>Thread-confined (scratch arrays and a decoder's output arrays): one per driver. Data path: encoding allocates
 * nothing after warm-up; decoding allocates the batch's arrays and one String per VARCHAR value.
 */
public final class RowCodec {

    /** Rows a decoded batch is sized for at first (it grows when a buffer holds more). */
    static final int BATCH_ROWS = 4096;

    private final Schema schema;
    private final boolean[] nullable;
    private final boolean[] pruned;
    /** Per pruned column: an all-NULL vector shared by decoded batches (immutable; replaced by a longer one). */
    private final Vector[] absent;

    private final ColumnCodec[] codecs;
    private final int[] columnOf;
    private final ColumnCodec[] variable;
    private final int fixedBytes;
    private int[] rowAt = new int[1024];
    private int[] cursor = new int[1024];
    private int decodedRows;
    private int capacity = BATCH_ROWS;

    /** A codec of every column of {@code schema}. */
    public RowCodec(Schema schema, boolean[] nullable) {
        this(schema, nullable, new boolean[schema.size()]);
    }

    /**
     * @param nullable per column: whether it may be NULL (VARCHARs carry NULL in their length either way)
     * @param pruned per column: whether it stays behind (decoded as NULLs)
     */
    public RowCodec(Schema schema, boolean[] nullable, boolean[] pruned) {
        this.schema = schema;
        this.nullable = nullable.clone();
        this.pruned = pruned.clone();
        this.absent = new Vector[schema.size()];
        if (nullable.length != schema.size() || pruned.length != schema.size()) {
            throw new IllegalArgumentException("one nullability and one pruning per column: columns=" + schema.size()
                    + " nullable=" + nullable.length + " pruned=" + pruned.length);
        }
        List<Integer> fixed = new ArrayList<>();
        List<Integer> nullableFixed = new ArrayList<>();
        List<Integer> strings = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            DataType type = schema.type(c);
            if (pruned[c]) {
                continue;
            }
            if (type.kind() == TypeKind.VARCHAR) {
                strings.add(c);
            } else if (nullable[c]) {
                nullableFixed.add(c);
            } else {
                fixed.add(c);
            }
        }
        fixed.sort((a, b) ->
                Integer.compare(FixedColumnCodec.width(schema.type(b)), FixedColumnCodec.width(schema.type(a))));
        int sent = fixed.size() + nullableFixed.size() + strings.size();
        this.codecs = new ColumnCodec[sent];
        this.columnOf = new int[sent];
        int i = 0;
        int offset = 0;
        for (int c : fixed) {
            columnOf[i] = c;
            codecs[i++] = FixedColumnCodec.of(schema.type(c), false, offset, capacity);
            offset += FixedColumnCodec.width(schema.type(c));
        }
        for (int c : nullableFixed) {
            columnOf[i] = c;
            codecs[i++] = FixedColumnCodec.of(schema.type(c), true, 0, capacity);
        }
        for (int c : strings) {
            columnOf[i] = c;
            codecs[i++] = new VarcharColumnCodec(schema.type(c), capacity);
        }
        this.variable = Arrays.copyOfRange(codecs, fixed.size(), codecs.length);
        this.fixedBytes = sent == 0 ? 1 : offset;
    }

    /** A codec of {@code schema} whose every column may be NULL. */
    public static RowCodec allNullable(Schema schema) {
        boolean[] nullable = new boolean[schema.size()];
        Arrays.fill(nullable, true);
        return new RowCodec(schema, nullable);
    }

    /** Another codec of the same format, for another thread. */
    public RowCodec copy() {
        return new RowCodec(schema, nullable, pruned);
    }

    public Schema schema() {
        return schema;
    }

    /** Bytes of the row's first part (the smallest row when nothing else is present). */
    public int fixedBytes() {
        return fixedBytes;
    }

    /** Sets {@code sizes[r]} to the encoded bytes of row r, for rows {@code [0, count)} of {@code batch}. */
    public void rowSizes(Batch batch, int count, int[] sizes) {
        Arrays.fill(sizes, 0, count, fixedBytes);
        for (int i = codecs.length - variable.length; i < codecs.length; i++) {
            codecs[i].addSizes(batch.column(columnOf[i]), 0, count, sizes);
        }
    }

    /**
     * Encodes rows {@code [from, from+count)} of {@code batch}: row r goes to {@code payloads[groupOf[r]]} at
     * {@code rowAt[r]} (its bytes there must be free: see {@link #rowSizes}).
     */
    public void encode(Batch batch, int from, int count, MemorySegment[] payloads, int[] groupOf, int[] rowAt) {
        int[] cursor = cursor(from + count);
        for (int r = from; r < from + count; r++) {
            cursor[r] = rowAt[r] + fixedBytes;
        }
        for (int i = 0; i < codecs.length; i++) {
            codecs[i].encode(batch.column(columnOf[i]), from, count, payloads, groupOf, rowAt, cursor);
        }
    }

    /** Decodes the rows of {@code payload}'s first {@code length} bytes, after those decoded before; returns how many. */
    public int decode(MemorySegment payload, int length) {
        int count;
        int[] starts;
        if (variable.length == 0) {
            count = length / fixedBytes;
            starts = rowAt(count);
            for (int r = 0; r < count; r++) {
                starts[r] = r * fixedBytes;
            }
        } else {
            count = 0;
            int position = 0;
            while (position < length) {
                starts = rowAt(count + 1);
                starts[count++] = position;
                position += fixedBytes;
                for (ColumnCodec codec : variable) {
                    position += codec.fieldBytes(payload, position);
                }
            }
            if (position != length) {
                throw new IllegalStateException(
                        "a received buffer does not end on a row: length=" + length + " rowsEndAt=" + position);
            }
            starts = rowAt;
        }
        int[] cursor = cursor(count);
        for (int r = 0; r < count; r++) {
            cursor[r] = starts[r] + fixedBytes;
        }
        int outRow = decodedRows;
        for (ColumnCodec codec : codecs) {
            codec.ensureCapacity(outRow + count);
        }
        for (ColumnCodec codec : codecs) {
            codec.decode(payload, count, starts, cursor, outRow);
        }
        decodedRows = outRow + count;
        return count;
    }

    /** Rows decoded since the last {@link #takeBatch}. */
    public int decodedRows() {
        return decodedRows;
    }

    /** The rows decoded so far as a batch (in schema order); the next decode starts a new one. */
    public Batch takeBatch() {
        Vector[] columns = new Vector[schema.size()];
        for (int i = 0; i < codecs.length; i++) {
            columns[columnOf[i]] = codecs[i].take(decodedRows, capacity);
        }
        for (int c = 0; c < columns.length; c++) {
            if (pruned[c]) {
                if (absent[c] == null || absent[c].size() < decodedRows) {
                    absent[c] = allNull(schema.type(c), Math.max(decodedRows, capacity));
                }
                columns[c] = absent[c];
            }
        }
        Batch batch = new Batch(decodedRows, List.of(columns));
        decodedRows = 0;
        return batch;
    }

    private static Vector allNull(DataType type, int rows) {
        Vector vector = Vector.allocate(type, rows, true);
        switch (vector) {
            case LongVector v -> Arrays.fill(v.nulls(), true);
            case IntVector v -> Arrays.fill(v.nulls(), true);
            case DoubleVector v -> Arrays.fill(v.nulls(), true);
            case BooleanVector v -> Arrays.fill(v.nulls(), true);
            case StringVector ignored -> {} // a null element is NULL
        }
        return vector;
    }

    private int[] rowAt(int rows) {
        if (rowAt.length < rows) {
            rowAt = Arrays.copyOf(rowAt, ColumnCodec.grown(rowAt.length, rows));
        }
        return rowAt;
    }

    private int[] cursor(int rows) {
        if (cursor.length < rows) {
            cursor = new int[ColumnCodec.grown(cursor.length, rows)];
        }
        return cursor;
    }
}
