package dev.faro.engine.exchange;

import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Vector;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A VARCHAR column in the row's variable part: a two-byte length (little-endian; {@link ColumnCodec#NULL_LENGTH}
 * for NULL), then that many bytes, ISO-8859-1 (TPC-H strings are ASCII). Only the real length travels.
 */
final class VarcharColumnCodec extends ColumnCodec {

    private String[] values;
    private byte[] scratch = new byte[256];

    VarcharColumnCodec(DataType type, int capacity) {
        super(type);
        values = new String[capacity];
    }

    @Override
    boolean variable() {
        return true;
    }

    @Override
    void addSizes(Vector vector, int from, int count, int[] sizes) {
        String[] strings = ((StringVector) vector).values();
        for (int r = from; r < from + count; r++) {
            String value = strings[r];
            sizes[r] += 2 + (value == null ? 0 : value.length());
        }
    }

    @Override
    void encode(
            Vector vector, int from, int count, MemorySegment[] payloads, int[] groupOf, int[] rowAt, int[] cursor) {
        String[] strings = ((StringVector) vector).values();
        for (int r = from; r < from + count; r++) {
            MemorySegment out = payloads[groupOf[r]];
            String value = strings[r];
            int at = cursor[r];
            if (value == null) {
                out.set(SHORT, at, (short) NULL_LENGTH);
                cursor[r] = at + 2;
                continue;
            }
            int length = value.length();
            if (length >= NULL_LENGTH) {
                throw new IllegalArgumentException("an exchanged string is too long: length=" + length);
            }
            out.set(SHORT, at, (short) length);
            for (int i = 0; i < length; i++) {
                char ch = value.charAt(i);
                if (ch > 0xff) {
                    throw new IllegalArgumentException("non-Latin-1 character in an exchanged string: " + (int) ch);
                }
                out.set(BYTE, at + 2 + i, (byte) ch);
            }
            cursor[r] = at + 2 + length;
        }
    }

    @Override
    int fieldBytes(MemorySegment payload, long at) {
        int length = Short.toUnsignedInt(payload.get(SHORT, at));
        return 2 + (length == NULL_LENGTH ? 0 : length);
    }

    @Override
    void decode(MemorySegment payload, int count, int[] rowAt, int[] cursor, int outRow) {
        String[] out = values;
        for (int r = 0; r < count; r++) {
            int at = cursor[r];
            int length = Short.toUnsignedInt(payload.get(SHORT, at));
            if (length == NULL_LENGTH) {
                out[outRow + r] = null;
                cursor[r] = at + 2;
                continue;
            }
            if (scratch.length < length) {
                scratch = new byte[Math.max(length, scratch.length * 2)];
            }
            MemorySegment.copy(payload, BYTE, at + 2, scratch, 0, length);
            out[outRow + r] = new String(scratch, 0, length, StandardCharsets.ISO_8859_1);
            cursor[r] = at + 2 + length;
        }
    }

    @Override
    Vector take(int rows, int capacity) {
        Vector vector = new StringVector(type, values);
        values = new String[capacity];
        return vector;
    }

    @Override
    void ensureCapacity(int rows) {
        if (rows > values.length) {
            values = Arrays.copyOf(values, grown(values.length, rows));
        }
    }
}
