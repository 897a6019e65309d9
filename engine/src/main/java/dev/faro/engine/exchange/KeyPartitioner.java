package dev.faro.engine.exchange;

import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.shuffle.operator.Partitioner;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Picks a row's transmission group from a hash of its key columns' values, read from the encoded row (see {@link
 * RowCodec}). Values are normalized before hashing (INTEGER/DATE widened to long, DECIMAL unscaled, DOUBLE by bits,
 * BOOLEAN 0/1, VARCHAR by its bytes), so equal keys land in the same group on every node, from every thread and from
 * both sides of a join whose key types differ only in width. The seed differs from the hash tables' so a node's
 * partition does not cluster in its own tables. Data path: allocation-free.
 */
final class KeyPartitioner implements Partitioner {

    private static final long SEED = 0x2545f4914f6cdd1dL;
    private static final long NULL_HASH = 0x7f4a7c15L;

    private final int groups;
    private final int[] columns;
    private final int[] offsets;
    private final DataType[] types;

    KeyPartitioner(RowCodec codec, List<String> keys, int groups) {
        Schema schema = codec.schema();
        this.groups = groups;
        this.columns = new int[keys.size()];
        this.offsets = new int[keys.size()];
        this.types = new DataType[keys.size()];
        for (int k = 0; k < columns.length; k++) {
            columns[k] = schema.indexOf(keys.get(k));
            offsets[k] = codec.offset(columns[k]);
            types[k] = schema.type(columns[k]);
        }
    }

    @Override
    public int group(MemorySegment tuples, long offset) {
        long hash = SEED;
        for (int k = 0; k < columns.length; k++) {
            int column = columns[k];
            byte bits = tuples.get(ValueLayout.JAVA_BYTE, offset + column / 8);
            long value;
            long field = offset + offsets[k];
            if ((bits & 1 << (column % 8)) != 0) {
                value = NULL_HASH;
            } else {
                value = switch (types[k].kind()) {
                    case BIGINT, DECIMAL -> tuples.get(RowCodec.LONG, field);
                    case DOUBLE -> Double.doubleToLongBits(tuples.get(RowCodec.DOUBLE, field) + 0.0);
                    case INTEGER, DATE -> tuples.get(RowCodec.INT, field);
                    case BOOLEAN -> tuples.get(ValueLayout.JAVA_BYTE, field);
                    case VARCHAR -> hashBytes(tuples, field);
                };
            }
            hash = Partitioner.mix(hash * 31 + value);
        }
        return (int) Long.remainderUnsigned(hash, groups);
    }

    private static long hashBytes(MemorySegment tuples, long field) {
        int length = Short.toUnsignedInt(tuples.get(RowCodec.SHORT, field));
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < length; i++) {
            hash ^= tuples.get(ValueLayout.JAVA_BYTE, field + 2 + i) & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }
}
