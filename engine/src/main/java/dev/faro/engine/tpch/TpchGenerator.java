package dev.faro.engine.tpch;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Table;
import io.trino.tpch.LineItem;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Generates one node's share of a TPC-H database with {@code io.trino.tpch} (a port of the specification's dbgen),
 * placed by a {@link Placement}. Every node runs the generator over the whole table and keeps its own tuples, so no
 * data moves at load time and every node agrees on the placement without talking. Generation is split into parts, one
 * per thread; the batches come out in part order, so the result does not depend on the thread count.
 */
public final class TpchGenerator {

    /** Rows per generated batch: the morsel size of table scans. */
    public static final int BATCH_ROWS = 16_384;

    private final double scaleFactor;
    private final int node;
    private final int nodes;
    private final Placement placement;
    private final int threads;

    public TpchGenerator(double scaleFactor, int node, int nodes, Placement placement, int threads) {
        if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
            throw new IllegalArgumentException("the scale factor must be positive: " + scaleFactor);
        }
        if (nodes < 1 || node < 0 || node >= nodes) {
            throw new IllegalArgumentException("node must be in [0, nodes): node=" + node + " nodes=" + nodes);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: threads=" + threads);
        }
        this.scaleFactor = scaleFactor;
        this.node = node;
        this.nodes = nodes;
        this.placement = java.util.Objects.requireNonNull(placement, "placement is null");
        this.threads = threads;
    }

    /** Every table of the node, in {@link TpchTables#ALL} order; {@code progress} hears each table's name when done. */
    public List<Table> generateAll(Consumer<String> progress) {
        List<Table> tables = new ArrayList<>();
        for (TpchTable<?> table : TpchTables.ALL) {
            tables.add(generate(table));
            progress.accept(table.getTableName());
        }
        return tables;
    }

    /** This node's part of {@code table}. */
    public <E extends TpchEntity> Table generate(TpchTable<E> table) {
        int parts = TpchTables.replicated(table) ? 1 : threads;
        List<List<Batch>> partBatches = new ArrayList<>();
        if (parts == 1) {
            partBatches.add(generatePart(table, 1, 1));
        } else {
            try (ExecutorService pool = Executors.newFixedThreadPool(parts, Thread.ofPlatform().daemon()
                    .name("tpch-" + table.getTableName() + "-", 0).factory())) {
                List<Future<List<Batch>>> futures = new ArrayList<>();
                for (int part = 1; part <= parts; part++) {
                    int p = part;
                    futures.add(pool.submit(() -> generatePart(table, p, parts)));
                }
                for (Future<List<Batch>> future : futures) {
                    partBatches.add(future.get());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while generating " + table.getTableName(), e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("generating " + table.getTableName() + " failed: " + e.getCause(),
                        e.getCause());
            }
        }
        List<Batch> batches = partBatches.stream().flatMap(List::stream).toList();
        return new Table(table.getTableName(), TpchTables.schema(table), batches);
    }

    private <E extends TpchEntity> List<Batch> generatePart(TpchTable<E> table, int part, int parts) {
        TpchBatchBuilder<E> builder = new TpchBatchBuilder<>(table, BATCH_ROWS);
        boolean replicated = TpchTables.replicated(table);
        int ordinal = TpchTables.ordinal(table);
        TpchColumn<E> firstColumn = table.getColumns().getFirst();
        for (E entity : table.createGenerator(scaleFactor, part, parts)) {
            if (replicated || placement.node(ordinal, rowId(entity), firstColumn.getIdentifier(entity), nodes) == node) {
                builder.add(entity);
            }
        }
        return builder.finish();
    }

    /** A number unique within the table: LINEITEM shares its order's row number, so the line number is added. */
    private static long rowId(TpchEntity entity) {
        if (entity instanceof LineItem line) {
            return line.rowNumber() * 8 + line.lineNumber();
        }
        return entity.rowNumber();
    }
}
