package dev.faro.engine.operator;

import dev.faro.engine.expression.Coercions;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DoubleVector;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Vector;

/**
 * The key columns of one batch in a normalized form for hashing and equality: strings as {@code String}, every
 * other type as a long (exact types unscaled, dates as days, doubles as their bits, booleans as 0/1), so an INTEGER
 * key matches a BIGINT key of the same value. Thread-confined; the arrays are reused across batches.
 *
 * <p>Data path: allocation-free after warm-up except for widening int columns to longs.
 */
final class KeyColumns {

    private static final long NULL_HASH = 0x5bd1e995L;
    /** The hash of a row before its first key is combined in. */
    private static final long HASH_SEED = 0x9e3779b97f4a7c15L;

    private final int[] columns;
    final long[][] longs;
    final String[][] strings;
    /** The key vectors of the loaded batch. */
    final Vector[] vectors;
    /** Per key: the NULL flags of a non-string key vector, or null when it has none (strings: a null element). */
    final boolean[][] nulls;
    /** Per row: whether any key column is NULL. */
    boolean[] anyNull;
    /** Per row: the combined hash of the key columns. */
    long[] hashes;

    int rows;

    KeyColumns(int[] columns) {
        this.columns = columns.clone();
        this.longs = new long[columns.length][];
        this.strings = new String[columns.length][];
        this.vectors = new Vector[columns.length];
        this.nulls = new boolean[columns.length][];
        this.anyNull = new boolean[1024];
        this.hashes = new long[1024];
    }

    int keyCount() {
        return columns.length;
    }

    /** Normalizes and hashes the key columns of {@code batch}. */
    void load(Batch batch) {
        normalize(batch);
        hashRange(0, rows);
    }

    /** Normalizes the key columns of {@code batch} (no hashing yet); sizes the hash and null arrays. */
    void normalize(Batch batch) {
        rows = batch.rowCount();
        if (hashes.length < rows) {
            hashes = new long[rows];
            anyNull = new boolean[rows];
        }
        for (int k = 0; k < columns.length; k++) {
            Vector vector = batch.column(columns[k]);
            vectors[k] = vector;
            nulls[k] = switch (vector) {
                case dev.faro.engine.vector.LongVector v -> v.nulls();
                case dev.faro.engine.vector.IntVector v -> v.nulls();
                case DoubleVector v -> v.nulls();
                case dev.faro.engine.vector.BooleanVector v -> v.nulls();
                case StringVector v -> null;
            };
            if (vector instanceof StringVector s) {
                strings[k] = s.values();
                longs[k] = null;
            } else if (vector instanceof DoubleVector d) {
                long[] values = longs[k] != null && longs[k].length >= rows ? longs[k] : new long[rows];
                double[] doubles = d.values();
                for (int i = 0; i < rows; i++) {
                    values[i] = Double.doubleToLongBits(doubles[i] + 0.0);
                }
                longs[k] = values;
                strings[k] = null;
            } else {
                longs[k] = Coercions.longs(vector, rows, vector.type().scale());
                strings[k] = null;
            }
        }
    }

    /** Hashes rows {@code [from, to)} of the normalized keys; ranges may be hashed by different threads. */
    void hashRange(int from, int to) {
        java.util.Arrays.fill(hashes, from, to, HASH_SEED);
        java.util.Arrays.fill(anyNull, from, to, false);
        for (int k = 0; k < columns.length; k++) {
            String[] keyStrings = strings[k];
            if (keyStrings != null) {
                for (int i = from; i < to; i++) {
                    String value = keyStrings[i];
                    long h;
                    if (value == null) {
                        anyNull[i] = true;
                        h = NULL_HASH;
                    } else {
                        h = value.hashCode();
                    }
                    hashes[i] = combine(hashes[i], h);
                }
                continue;
            }
            long[] values = longs[k];
            boolean[] keyNulls = nulls[k];
            if (keyNulls == null) {
                for (int i = from; i < to; i++) {
                    hashes[i] = combine(hashes[i], values[i]);
                }
            } else {
                for (int i = from; i < to; i++) {
                    long h = values[i];
                    if (keyNulls[i]) {
                        anyNull[i] = true;
                        h = NULL_HASH;
                    }
                    hashes[i] = combine(hashes[i], h);
                }
            }
        }
    }

    /** Hashes the rows {@code rows[0, count)} of the normalized keys as {@link #hashRange} hashes a range. */
    void hashRows(int[] rows, int count) {
        for (int c = 0; c < count; c++) {
            int i = rows[c];
            long hash = HASH_SEED;
            boolean isNull = false;
            for (int k = 0; k < columns.length; k++) {
                long h;
                if (strings[k] != null) {
                    String value = strings[k][i];
                    isNull |= value == null;
                    h = value == null ? NULL_HASH : value.hashCode();
                } else if (nulls[k] != null && nulls[k][i]) {
                    isNull = true;
                    h = NULL_HASH;
                } else {
                    h = longs[k][i];
                }
                hash = combine(hash, h);
            }
            hashes[i] = hash;
            anyNull[i] = isNull;
        }
    }

    /** The hash {@link #hashRange} gives a row whose only key is the non-NULL normalized {@code value}. */
    static long hashOfOneKey(long value) {
        return combine(HASH_SEED, value);
    }

    /** The hash {@link #hashRange} gives a row whose only key is NULL. */
    static long hashOfOneNullKey() {
        return combine(HASH_SEED, NULL_HASH);
    }

    /** A row's hash so far with one more key's hash (or normalized value) combined in. */
    private static long combine(long hash, long keyHash) {
        return mix(hash * 31 + keyHash);
    }

    /** Whether key {@code k} of row {@code row} is NULL. */
    boolean isNull(int k, int row) {
        return strings[k] != null ? strings[k][row] == null : nulls[k] != null && nulls[k][row];
    }

    /** Whether key row {@code row} equals row {@code otherRow} of {@code other} (same key count; NULL matches none). */
    boolean equalsRow(int row, KeyColumns other, int otherRow) {
        for (int k = 0; k < columns.length; k++) {
            if (strings[k] != null) {
                if (!strings[k][row].equals(other.strings[k][otherRow])) {
                    return false;
                }
            } else if (longs[k][row] != other.longs[k][otherRow]) {
                return false;
            }
        }
        return true;
    }

    /** The murmur3 64-bit finalizer. */
    static long mix(long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
