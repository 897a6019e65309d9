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
 * <p>Built in parallel: threads hash disjoint row ranges, then each inserts the rows of the buckets it owns
 * ({@code bucket % threads}); probing threads see the table after the builders were joined.
 */
final class JoinHashTable {

    final Batch rows;
    final KeyColumns keys;
    final int[] heads;
    final int[] next;
    final int mask;

    private JoinHashTable(Batch rows, KeyColumns keys, int[] heads, int[] next) {
        this.rows = rows;
        this.keys = keys;
        this.heads = heads;
        this.next = next;
        this.mask = heads.length - 1;
    }

    static JoinHashTable build(Schema schema, List<Batch> batches, int[] keyColumns, int threads) {
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
        int size = total;
        int chunk = (size + threads - 1) / Math.max(1, threads);
        ParallelTasks.run(
                threads, "join-hash", t -> keys.hashRange(Math.min(size, t * chunk), Math.min(size, (t + 1) * chunk)));
        long[] hashes = keys.hashes;
        boolean[] anyNull = keys.anyNull;
        ParallelTasks.run(threads, "join-insert", t -> {
            for (int row = 0; row < size; row++) {
                if (anyNull[row]) {
                    continue;
                }
                int bucket = (int) hashes[row] & mask;
                if (bucket % threads == t) {
                    next[row] = heads[bucket];
                    heads[bucket] = row;
                }
            }
        });
        return new JoinHashTable(all, keys, heads, next);
    }
}
