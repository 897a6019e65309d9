package dev.faro.engine.operator;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Vector;
import dev.faro.engine.vector.VectorBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The build side of a hash join, shared read-only by every probing thread of the node: the build rows concatenated
 * column-wise, their normalized keys and hashes, and bucket chains ({@code heads[bucket]} the first row,
 * {@code next[row]} the following one). Rows with a NULL key are not inserted (they match nothing).
 *
 * <p>Built in parallel from {@link ParallelTasks#PARALLEL_MIN_ROWS} rows on: threads hash disjoint row ranges, then each inserts the rows of the buckets it owns
 * ({@code bucket % threads}); probing threads see the table after the builders were joined.
 *
 * <p>With one non-string key the table also keeps {@code headKeys}: per bucket the key of its first row beside that
 * row, so a probe reads one cache line where the chain costs three ({@code heads}, the key column, {@code next}); and
 * {@code uniqueKeys} says whether no key occurs twice (TPC-H's joins on a primary key), so a probe stops at its first
 * match.
 */
final class JoinHashTable {

    final Batch rows;
    final KeyColumns keys;
    final int[] heads;
    final int[] next;
    final int mask;
    /** Set in a {@link #headKeys} row entry when the bucket's chain has more than its first row. */
    static final long MORE_ROWS = 1L << 32;

    /**
     * One non-string key: {@code [2 * bucket]} the key of the bucket's first row, {@code [2 * bucket + 1]} the row in
     * the low 32 bits, {@link #MORE_ROWS} when more follow (-1: empty bucket); else null.
     */
    final long[] headKeys;
    /** Whether no key occurs twice among the inserted rows (known only with {@link #headKeys}, else false). */
    final boolean uniqueKeys;

    /**
     * Builds of at least this many rows get a {@link JoinFilter}: below it the table is small enough to stay in cache,
     * so a filter would only add work.
     */
    static final int FILTER_MIN_ROWS = 16_384;

    /** The hashes of the inserted rows' keys, checked before the buckets; null for a small build or with a bitmap. */
    final JoinFilter filter;

    /**
     * When the first key is not a string and spans a narrow enough range: exactly the first keys of the inserted rows
     * (else null).
     */
    final KeyBitmap bitmap;

    private JoinHashTable(
            Batch rows,
            KeyColumns keys,
            int[] heads,
            int[] next,
            long[] headKeys,
            boolean unique,
            JoinFilter filter,
            KeyBitmap bitmap) {
        this.rows = rows;
        this.keys = keys;
        this.heads = heads;
        this.next = next;
        this.mask = heads.length - 1;
        this.headKeys = headKeys;
        this.uniqueKeys = unique;
        this.filter = filter;
        this.bitmap = bitmap;
    }

    static JoinHashTable build(Schema schema, List<Batch> batches, int[] keyColumns, int threads) {
        return build(schema, batches, keyColumns, threads, FILTER_MIN_ROWS, true);
    }

    /**
     * {@link #build} with a {@link JoinFilter} when the build has at least {@code filterMinRows} rows, and with a
     * {@link KeyBitmap} only when {@code bitmaps} (tests compare tables with and without).
     */
    static JoinHashTable build(
            Schema schema, List<Batch> batches, int[] keyColumns, int threads, int filterMinRows, boolean bitmaps) {
        int total = 0;
        for (Batch batch : batches) {
            total += batch.rowCount();
        }
        List<Vector> columns = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            VectorBuilder builder = VectorBuilder.create(schema.type(c), total);
            int row = 0;
            for (Batch batch : batches) {
                builder.copyRange(batch.column(c), 0, batch.rowCount(), row);
                row += batch.rowCount();
            }
            columns.add(builder.build());
        }
        Batch all = new Batch(total, columns);
        KeyColumns keys = new KeyColumns(keyColumns);
        keys.normalize(all);
        int buckets = Integer.highestOneBit(Math.max(16, total * 2 - 1)) << 1;
        int[] heads = new int[buckets];
        Arrays.fill(heads, -1);
        int[] next = new int[Math.max(1, total)];
        int mask = buckets - 1;
        int workers = ParallelTasks.threadsFor(total, threads);
        int size = total;
        int chunk = (size + workers - 1) / Math.max(1, workers);
        ParallelTasks.run(
                workers, "join-hash", t -> keys.hashRange(Math.min(size, t * chunk), Math.min(size, (t + 1) * chunk)));
        long[] hashes = keys.hashes;
        boolean[] anyNull = keys.anyNull;
        long[] values = keys.keyCount() == 1 && keys.strings[0] == null ? keys.longs[0] : null;
        boolean[] duplicates = new boolean[Math.max(1, workers)];
        KeyBitmap bitmap = bitmaps && keys.keyCount() > 0 && keys.strings[0] == null
                ? KeyBitmap.of(keys.longs[0], anyNull, size)
                : null;
        // with one key the bitmap is exact; with more it knows the first key only, and the filter all of them
        JoinFilter filter = total >= filterMinRows && (bitmap == null || values == null) ? new JoinFilter(total) : null;
        ParallelTasks.run(workers, "join-insert", t -> {
            for (int row = 0; row < size; row++) {
                if (anyNull[row]) {
                    continue;
                }
                if (filter != null && filter.owner(hashes[row], workers) == t) {
                    filter.add(hashes[row]);
                }
                int bucket = (int) hashes[row] & mask;
                if (bucket % workers == t) {
                    if (values != null && !duplicates[t]) {
                        for (int b = heads[bucket]; b >= 0; b = next[b]) {
                            if (values[b] == values[row]) {
                                duplicates[t] = true;
                                break;
                            }
                        }
                    }
                    next[row] = heads[bucket];
                    heads[bucket] = row;
                }
            }
        });
        if (values == null) {
            return new JoinHashTable(all, keys, heads, next, null, false, filter, bitmap);
        }
        long[] headKeys = new long[2 * buckets];
        for (int bucket = 0; bucket < buckets; bucket++) {
            int head = heads[bucket];
            headKeys[2 * bucket] = head >= 0 ? values[head] : 0;
            headKeys[2 * bucket + 1] = head < 0 ? -1 : next[head] < 0 ? head : head | MORE_ROWS;
        }
        boolean unique = true;
        for (boolean duplicate : duplicates) {
            unique &= !duplicate;
        }
        return new JoinHashTable(all, keys, heads, next, headKeys, unique, filter, bitmap);
    }
}
