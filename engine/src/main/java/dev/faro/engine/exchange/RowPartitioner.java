package dev.faro.engine.exchange;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DoubleVector;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Vector;
import dev.faro.shuffle.operator.Partitioner;
import java.util.Arrays;
import java.util.List;

/**
 * Picks each row's transmission group from a hash of its key columns, computed on the batch's vectors (a column at a
 * time, before anything is encoded). Values are normalized before hashing (INTEGER/DATE widened to long, DECIMAL
 * unscaled, DOUBLE by bits with -0.0 as 0.0, BOOLEAN 0/1, VARCHAR by its ISO-8859-1 bytes), so equal keys land in
 * the same group on every node, from every thread and from both sides of a join whose key types differ only in
 * width. The seed differs from the hash tables' so a node's partition does not cluster in its own tables. Without
 * keys (broadcast, gather) every row goes to group 0.
 *
 * <p>Thread-confined (a hash scratch array). Data path: allocation-free after warm-up.
 */
final class RowPartitioner {

    private static final long SEED = 0x2545f4914f6cdd1dL;
    private static final long NULL_HASH = 0x7f4a7c15L;

    private final int groups;
    private final int[] keys;
    private long[] hashes = new long[1024];
    /** The hashes before a key column that has NULLs, to hash its NULL rows from. */
    private long[] before = new long[1024];

    /** @param keys the key column names (empty: one group) */
    RowPartitioner(Schema schema, List<String> keys, int groups) {
        this.groups = groups;
        this.keys = keys.stream().mapToInt(schema::indexOf).toArray();
    }

    /** Sets {@code groupOf[r]} for rows {@code [0, count)} of {@code batch}. */
    void groups(Batch batch, int count, int[] groupOf) {
        if (keys.length == 0 || groups == 1) {
            Arrays.fill(groupOf, 0, count, 0);
            return;
        }
        if (hashes.length < count) {
            hashes = new long[Math.max(count, hashes.length * 2)];
            before = new long[hashes.length];
        }
        long[] hash = hashes;
        Arrays.fill(hash, 0, count, SEED);
        for (int key : keys) {
            Vector vector = batch.column(key);
            boolean nulls = vector.mayHaveNulls() && !(vector instanceof StringVector);
            if (nulls) {
                System.arraycopy(hash, 0, before, 0, count);
            }
            switch (vector) {
                case LongVector v -> {
                    long[] values = v.values();
                    for (int r = 0; r < count; r++) {
                        hash[r] = Partitioner.mix(hash[r] * 31 + values[r]);
                    }
                }
                case IntVector v -> {
                    int[] values = v.values();
                    for (int r = 0; r < count; r++) {
                        hash[r] = Partitioner.mix(hash[r] * 31 + values[r]);
                    }
                }
                case DoubleVector v -> {
                    double[] values = v.values();
                    for (int r = 0; r < count; r++) {
                        hash[r] = Partitioner.mix(hash[r] * 31 + Double.doubleToLongBits(values[r] + 0.0));
                    }
                }
                case BooleanVector v -> {
                    boolean[] values = v.values();
                    for (int r = 0; r < count; r++) {
                        hash[r] = Partitioner.mix(hash[r] * 31 + (values[r] ? 1 : 0));
                    }
                }
                case StringVector v -> {
                    String[] values = v.values();
                    for (int r = 0; r < count; r++) {
                        hash[r] = Partitioner.mix(hash[r] * 31 + hashString(values[r]));
                    }
                }
            }
            if (nulls) {
                for (int r = 0; r < count; r++) {
                    if (vector.isNull(r)) {
                        hash[r] = Partitioner.mix(before[r] * 31 + NULL_HASH);
                    }
                }
            }
        }
        for (int r = 0; r < count; r++) {
            groupOf[r] = (int) Long.remainderUnsigned(hash[r], groups);
        }
    }

    private static long hashString(String value) {
        if (value == null) {
            return NULL_HASH;
        }
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < value.length(); i++) {
            hash ^= value.charAt(i) & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }
}
