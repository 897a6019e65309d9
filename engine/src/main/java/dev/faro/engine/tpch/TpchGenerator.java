package dev.faro.engine.tpch;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Table;
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
 * placed by a {@link Placement}, without talking to the other nodes: no data moves at load time. The generator runs
 * in blocks (dbgen's "parts", up to {@value #MAX_BLOCKS} per table, each a contiguous run of rows that the generator
 * can jump to). With {@link Placement#RANDOM} every block lives on a pseudo-random node, drawn independently per
 * table, and a node generates only its own blocks, so the nodes share the generation work. With
 * {@link Placement#FIRST_KEY} every node runs the generator over the whole table and keeps the tuples whose first key
 * hashes to it. A node's blocks are split into contiguous runs, one per thread, so the rows come out in the same order
 * whatever the thread count.
 */
public final class TpchGenerator {

    /** Rows per generated batch: the morsel size of table scans. */
    public static final int BATCH_ROWS = 16_384;

    /** At least this many rows of the driving table per generator block. */
    static final long MIN_ROWS_PER_BLOCK = 8;

    /** At most this many blocks per table: the granularity of {@link Placement#RANDOM}. */
    static final int MAX_BLOCKS = 1_024;

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
        List<int[]> work = workPerThread(table);
        List<List<Batch>> threadBatches = new ArrayList<>();
        if (work.size() == 1) {
            threadBatches.add(generateBlocks(table, work.getFirst()));
        } else {
            try (ExecutorService pool = Executors.newFixedThreadPool(
                    work.size(),
                    Thread.ofPlatform()
                            .daemon()
                            .name("tpch-" + table.getTableName() + "-", 0)
                            .factory())) {
                List<Future<List<Batch>>> futures = new ArrayList<>();
                for (int[] blocks : work) {
                    futures.add(pool.submit(() -> generateBlocks(table, blocks)));
                }
                for (Future<List<Batch>> future : futures) {
                    threadBatches.add(future.get());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while generating " + table.getTableName(), e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Error error) {
                    throw error; // out of memory: say so, do not dress it up
                }
                throw new IllegalStateException(
                        "generating " + table.getTableName() + " failed: " + e.getCause(), e.getCause());
            }
        }
        List<Batch> batches = threadBatches.stream().flatMap(List::stream).toList();
        return new Table(table.getTableName(), TpchTables.schema(table), batches);
    }

    /**
     * The generator blocks each thread runs, as contiguous runs of this node's blocks (so the rows come out in the
     * same order whatever the thread count). With {@link Placement#RANDOM} a node runs only its own blocks; otherwise
     * (replicated tables, {@link Placement#FIRST_KEY}) it runs all of them and keeps its tuples.
     */
    private int[][] blocksOf(TpchTable<?> table) {
        int blocks = blockCount(table);
        boolean own = placement == Placement.RANDOM && !TpchTables.replicated(table) && nodes > 1;
        int ordinal = TpchTables.ordinal(table);
        int[] mine = java.util.stream.IntStream.range(0, blocks)
                .filter(block -> !own || Placement.blockNode(ordinal, block, nodes) == node)
                .toArray();
        return new int[][] {mine, {blocks}};
    }

    private List<int[]> workPerThread(TpchTable<?> table) {
        int[][] blocks = blocksOf(table);
        int[] mine = blocks[0];
        int total = blocks[1][0];
        int workers = Math.max(1, Math.min(threads, mine.length));
        List<int[]> work = new ArrayList<>();
        for (int t = 0; t < workers; t++) {
            int from = (int) ((long) mine.length * t / workers);
            int to = (int) ((long) mine.length * (t + 1) / workers);
            int[] run = new int[to - from + 1];
            run[0] = total;
            System.arraycopy(mine, from, run, 1, to - from);
            work.add(run);
        }
        return work;
    }

    /** {@code blocks[0]} is the table's block count, the rest are the blocks (0-based) to generate. */
    private <E extends TpchEntity> List<Batch> generateBlocks(TpchTable<E> table, int[] blocks) {
        TpchBatchBuilder<E> builder = new TpchBatchBuilder<>(table, BATCH_ROWS);
        boolean keepAll = TpchTables.replicated(table) || placement == Placement.RANDOM || nodes == 1;
        TpchColumn<E> firstColumn = table.getColumns().getFirst();
        int total = blocks[0];
        for (int i = 1; i < blocks.length; i++) {
            for (E entity : table.createGenerator(scaleFactor, blocks[i] + 1, total)) {
                if (keepAll || Placement.firstKeyNode(firstColumn.getIdentifier(entity), nodes) == node) {
                    builder.add(entity);
                }
            }
        }
        return builder.finish();
    }

    /**
     * Generator blocks of a table: at least {@value #MIN_ROWS_PER_BLOCK} rows of its driving table each (ORDERS for
     * LINEITEM, PART for PARTSUPP), at most {@value #MAX_BLOCKS}; one for NATION and REGION.
     */
    int blockCount(TpchTable<?> table) {
        if (TpchTables.replicated(table)) {
            return 1;
        }
        long baseRows = switch (table.getTableName()) {
            case "customer" -> 150_000;
            case "orders", "lineitem" -> 1_500_000;
            case "part", "partsupp" -> 200_000;
            case "supplier" -> 10_000;
            default -> throw new IllegalArgumentException("unknown TPC-H table " + table.getTableName());
        };
        return (int) Math.clamp((long) (baseRows * scaleFactor) / MIN_ROWS_PER_BLOCK, 1, MAX_BLOCKS);
    }
}
