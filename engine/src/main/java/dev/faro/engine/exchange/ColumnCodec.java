package dev.faro.engine.exchange;

import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Vector;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Encodes and decodes one column of a {@link RowCodec}'s rows; one subclass per storage kind, chosen once per
 * exchange, so the per-value loops hold no type switch. A column is in one of the row's three parts (VLDB16 Fig. 8):
 * fixed-width and not nullable (at a fixed offset of the row), fixed-width and nullable (a one-byte indicator, then
 * the value only when it is not NULL), or a VARCHAR (a two-byte length, {@link #NULL_LENGTH} for NULL, then the
 * bytes). Rows are addressed by arrays: {@code rowAt[r]} is row r's start in its buffer, {@code cursor[r]} where its
 * next variable-part field goes (advanced by each variable column, in order).
 *
 * <p>Thread-confined: a decoder keeps growing output arrays. Data path: encoding allocates nothing; decoding
 * allocates the output arrays (once per batch) and one String per VARCHAR value.
 */
abstract sealed class ColumnCodec permits FixedColumnCodec, VarcharColumnCodec {

    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

    /** The length of a NULL VARCHAR. */
    static final int NULL_LENGTH = 0xffff;

    final DataType type;

    ColumnCodec(DataType type) {
        this.type = type;
    }

    /** Whether the column lives in the row's variable part (nullable or VARCHAR). */
    abstract boolean variable();

    /** Adds the bytes rows {@code [from, from+count)} take in the variable part to {@code sizes[r]}. */
    abstract void addSizes(Vector vector, int from, int count, int[] sizes);

    /** Writes rows {@code [from, from+count)} into {@code payloads[groupOf[r]]} (see the class comment). */
    abstract void encode(
            Vector vector, int from, int count, MemorySegment[] payloads, int[] groupOf, int[] rowAt, int[] cursor);

    /** The bytes of this (variable) column's field at {@code at}. */
    abstract int fieldBytes(MemorySegment payload, long at);

    /** Decodes rows {@code [0, count)} of {@code payload} into output rows {@code [outRow, outRow+count)}. */
    abstract void decode(MemorySegment payload, int count, int[] rowAt, int[] cursor, int outRow);

    /** The decoded rows {@code [0, rows)} as a vector; the next decode starts new arrays of {@code capacity}. */
    abstract Vector take(int rows, int capacity);

    /** Makes room for {@code rows} decoded rows. */
    abstract void ensureCapacity(int rows);

    static int grown(int capacity, int rows) {
        return Math.max(rows, capacity * 2);
    }
}
