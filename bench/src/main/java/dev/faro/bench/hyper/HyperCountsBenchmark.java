package dev.faro.bench.hyper;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.hyper.HyperConfig;
import dev.faro.hyper.HyperTransport;
import dev.faro.hyper.ParallelUnits;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * V1 of the VLDB16 digest: connections in the cluster, buffers per exchange operator and the size ratio up to which a
 * broadcast beats a repartition, for classic parallelism (n·t units, per-thread connections and buffers) against
 * hybrid parallelism (one multiplexer per node, one message per destination server), from §3.1's formulas
 * ({@link ParallelUnits}) for each node count at {@code threads} threads per node, next to the queue pairs real
 * multiplexers connected: {@code measuredNodes} in-process nodes over {@code shm} each open one repartition exchange
 * with {@code measuredThreads} threads per node, and every node's connected queue pairs are summed. The paper's row is
 * n = 6, t = 40: 57,560 against 30 connections, 239 against 5 buffers. Coordination code.
 */
public final class HyperCountsBenchmark {

    /** What a run printed and wrote. */
    public record Report(String table, Path csvFile, Path plotFile) {}

    private final List<Integer> nodeCounts;
    private final int threads;
    private final int measuredThreads;
    private final Path outputDirectory;
    private final Consumer<String> progress;

    public HyperCountsBenchmark(
            List<Integer> nodeCounts,
            int threads,
            int measuredThreads,
            Path outputDirectory,
            Consumer<String> progress) {
        for (int nodes : nodeCounts) {
            if (nodes < 2 || nodes > 8) {
                throw new IllegalArgumentException("node counts must be in [2, 8]: " + nodes);
            }
        }
        if (threads < 1 || measuredThreads < 1 || measuredThreads > 8) {
            throw new IllegalArgumentException(
                    "threads must be positive and measured threads in [1, 8]: " + threads + ", " + measuredThreads);
        }
        this.nodeCounts = List.copyOf(nodeCounts);
        this.threads = threads;
        this.measuredThreads = measuredThreads;
        this.outputDirectory = outputDirectory;
        this.progress = progress;
    }

    public Report run() throws InterruptedException {
        List<List<String>> rows = new ArrayList<>();
        List<List<String>> tableRows = new ArrayList<>();
        List<Double> x = new ArrayList<>();
        List<Double> classicBuffers = new ArrayList<>();
        List<Double> hybridBuffers = new ArrayList<>();
        List<Double> measured = new ArrayList<>();
        for (int nodes : nodeCounts) {
            ParallelUnits units = new ParallelUnits(nodes, threads);
            progress.accept("measuring the queue pairs of " + nodes + " multiplexers (" + measuredThreads
                    + " threads per node)");
            long queuePairs = measureQueuePairs(nodes);
            boolean paperRow = nodes == 6 && threads == 40;
            long[] values = {
                nodes,
                threads,
                units.classicConnections(),
                units.hybridConnections(),
                queuePairs,
                units.classicBuffersPerOperator(),
                units.hybridBuffersPerOperator(),
                units.classicBroadcastRatio(),
                units.hybridBroadcastRatio()
            };
            List<String> csvRow = new ArrayList<>();
            List<String> tableRow = new ArrayList<>();
            for (long value : values) {
                csvRow.add(Long.toString(value));
                tableRow.add(count(value));
            }
            String paper = paperRow ? "57,560 / 30; 239 / 5; 239 / 5" : "";
            csvRow.add(paper);
            tableRow.add(paper);
            rows.add(csvRow);
            tableRows.add(tableRow);
            x.add((double) nodes);
            classicBuffers.add((double) units.classicBuffersPerOperator());
            hybridBuffers.add((double) units.hybridBuffersPerOperator());
            measured.add((double) queuePairs / nodes);
        }
        List<String> header = List.of(
                "nodes",
                "threads",
                "classic connections",
                "hybrid connections",
                "hyper queue pairs (measured)",
                "classic buffers/operator",
                "hybrid buffers/operator",
                "classic broadcast ratio",
                "hybrid broadcast ratio",
                "paper (connections; buffers; ratio)");
        List<ResultTable.Column> columns = new ArrayList<>();
        for (String title : header) {
            columns.add(title.startsWith("paper") ? ResultTable.Column.text(title) : ResultTable.Column.number(title));
        }
        String table = "VLDB16 V1: classic (n*t units) vs hybrid (n servers) parallelism, " + threads
                + " threads per node; measured: queue pairs the hyper multiplexers connected (" + measuredThreads
                + " threads per node; the count does not depend on it)\n"
                + new ResultTable(columns, tableRows).format();
        Path csv = outputDirectory.resolve("hyper-v1.csv");
        CsvWriter.write(csv, header, rows);
        Path plot = outputDirectory.resolve("hyper-v1.png");
        PlotWriter.writeLines(
                plot,
                "VLDB16 V1: buffers per exchange operator, " + threads + " threads per node",
                "nodes",
                false,
                "buffers per operator / queue pairs per node",
                List.of(
                        new PlotWriter.Line("classic (n*t - 1)", x, classicBuffers, true),
                        new PlotWriter.Line("hybrid (n - 1)", x, hybridBuffers, false),
                        new PlotWriter.Line("hyper queue pairs per node (measured)", x, measured, false)));
        return new Report(table, csv, plot);
    }

    private static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    /** Starts {@code nodes} multiplexers in this process, runs one small repartition, sums their queue pairs. */
    private long measureQueuePairs(int nodes) throws InterruptedException {
        HyperConfig config = HyperConfig.defaults().withMessageBytes(4096).withSendMessages(16);
        ExecutorService pool = Executors.newCachedThreadPool();
        try (InProcessHyperCluster cluster = new InProcessHyperCluster("hyper-v1", nodes, config, Map.of(), progress)) {
            List<Future<?>> runs = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                HyperTransport transport = cluster.transport(node);
                runs.add(pool.submit(() -> {
                    exchangeOnce(transport, pool, nodes);
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(120, TimeUnit.SECONDS);
            }
            long queuePairs = 0;
            for (int node = 0; node < nodes; node++) {
                queuePairs += cluster.multiplexer(node).queuePairs();
            }
            return queuePairs;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the measured exchange failed: " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One repartition of one 8-byte value per thread and node, drained alongside. */
    private void exchangeOnce(HyperTransport transport, ExecutorService pool, int nodes) throws Exception {
        try (ExchangeChannel channel =
                transport.open("hyper-v1-x1", TransmissionGroups.repartition(nodes), measuredThreads)) {
            List<Future<?>> receivers = new ArrayList<>();
            for (int thread = 0; thread < measuredThreads; thread++) {
                ExchangeReceiver receiver = channel.receiver(thread);
                receivers.add(pool.submit(() -> {
                    ShuffleBuffer buffer;
                    while ((buffer = receiver.take()) != null) {
                        receiver.release(buffer);
                    }
                    return null;
                }));
            }
            for (int thread = 0; thread < measuredThreads; thread++) {
                var sender = channel.sender(thread);
                int group = thread % nodes;
                sender.payload(group).set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0, thread);
                sender.length(group, Long.BYTES);
                sender.finish();
            }
            for (Future<?> receiver : receivers) {
                receiver.get(60, TimeUnit.SECONDS);
            }
        }
    }
}
