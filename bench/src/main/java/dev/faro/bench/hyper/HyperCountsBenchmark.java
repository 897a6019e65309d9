package dev.faro.bench.hyper;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.hyper.ClassicTransport;
import dev.faro.hyper.HyperTransport;
import dev.faro.hyper.ParallelUnits;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * V1 of the VLDB16 digest: connections in the cluster, buffers per exchange operator and the size ratio up to which a
 * broadcast beats a repartition, for classic parallelism (n·t units, per-thread connections and buffers) against
 * hybrid parallelism (one multiplexer per node, one message per destination server), from §3.1's formulas
 * ({@link ParallelUnits}) for each node count at {@code threads} threads per node, next to what the live transports
 * did ({@link TransportCounts}): for each node count, that many in-process nodes over {@code shm} open one repartition
 * exchange of the classic and then of the hyper transport with {@code measuredThreads} threads per node; the queue
 * pairs created on the nodes' fabrics ({@link CountingFabric}) are summed, and the most buffers one producing thread
 * held at once is counted, for each. The paper's row is
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
        List<Double> classicMeasured = new ArrayList<>();
        for (int nodes : nodeCounts) {
            ParallelUnits units = new ParallelUnits(nodes, threads);
            progress.accept("measuring the queue pairs and buffers of " + nodes + " classic and hyper nodes ("
                    + measuredThreads + " threads per node)");
            TransportCounts classic = TransportCounts.measure(ClassicTransport.NAME, nodes, measuredThreads);
            TransportCounts hyper = TransportCounts.measure(HyperTransport.NAME, nodes, measuredThreads);
            ParallelUnits measuredUnits = new ParallelUnits(nodes, measuredThreads);
            long queuePairs = hyper.queuePairs();
            boolean paperRow = nodes == 6 && threads == 40;
            long[] values = {
                nodes,
                threads,
                units.classicConnections(),
                units.hybridConnections(),
                measuredUnits.classicConnections(),
                classic.queuePairs(),
                queuePairs,
                classic.buffersPerProducer(),
                hyper.buffersPerProducer(),
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
            classicMeasured.add((double) classic.queuePairs() / nodes);
        }
        List<String> header = List.of(
                "nodes",
                "threads",
                "classic connections",
                "hybrid connections",
                "classic connections at measured t",
                "classic queue pairs (measured)",
                "hyper queue pairs (measured)",
                "classic buffers/thread (measured)",
                "hyper buffers/thread (measured)",
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
                + " threads per node (formulas); measured at " + measuredThreads + " threads per node on in-process shm"
                + " nodes, one repartition each, counted on the live objects: queue pairs the fabrics created (summed"
                + " over the nodes; classic: n*t unit groups over per-unit " + ClassicTransport.INNER
                + " channels, hyper: a multiplexer per node) and the distinct open buffers one"
                + " producing thread held\n"
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
                        new PlotWriter.Line("hyper queue pairs per node (measured)", x, measured, false),
                        new PlotWriter.Line(
                                "classic queue pairs per node (measured, t = " + measuredThreads + ")",
                                x,
                                classicMeasured,
                                false)));
        return new Report(table, csv, plot);
    }

    private static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
