package dev.faro.bench.hyper;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.Medians;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.tpch.QueryOutcome;
import dev.faro.cluster.tpch.TpchSession;
import dev.faro.cluster.tpch.TpchSettings;
import dev.faro.engine.tpch.Placement;
import dev.faro.engine.tpch.TpchQueries;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * V8 and V12 of the VLDB16 digest: the bytes every TPC-H query shuffles, per scale factor, with the database placed in
 * chunks (random placement of generator blocks, as dbgen's chunks: no two tables co-partitioned) and by the first key
 * of every table (ORDERS and LINEITEM on the order key, PART and PARTSUPP on the part key), whose plans join those
 * tables where they lie and aggregate on those keys in one phase ({@link dev.faro.engine.tpch.Distribution}). Per
 * scale factor one local cluster per placement, both up at once; every query once as a warm-up, then {@code runs}
 * times, the two placements taking turns query by query; bytes are the
 * rows the exchanges encoded and sent, summed over the nodes (a broadcast buffer counts once, whatever its
 * destinations; a node's own share counts too), and the median time. The paper (Table 2, 6 servers, SF 100):
 * 27.95 GB chunked against 8.88 GB partitioned, 0.28 and 0.09 GB per unit of scale factor, 3.1× fewer; 4.92 s against
 * 3.82 s for all 22. Coordination code.
 */
public final class HyperPlacementBenchmark {

    /** What a run printed and wrote. */
    public record Report(String table, Path csvFile, Path plotFile) {}

    private static final List<Placement> PLACEMENTS = List.of(Placement.RANDOM, Placement.FIRST_KEY);
    private static final double PAPER_CHUNKED_GB_PER_SF = 27.95 / 100;
    private static final double PAPER_PARTITIONED_GB_PER_SF = 8.88 / 100;
    private static final int PAPER_SERVERS = 6;

    private final List<Double> scaleFactors;
    private final List<Integer> queries;
    private final int nodes;
    private final int threads;
    private final String transport;
    private final int runs;
    private final Path outputDirectory;
    private final Consumer<String> progress;

    public HyperPlacementBenchmark(
            List<Double> scaleFactors,
            List<Integer> queries,
            int nodes,
            int threads,
            String transport,
            int runs,
            Path outputDirectory,
            Consumer<String> progress) {
        if (queries.isEmpty() || !TpchQueries.implemented().containsAll(queries)) {
            throw new IllegalArgumentException(
                    "queries must be among " + TpchQueries.implemented() + ", got " + queries);
        }
        if (scaleFactors.isEmpty() || scaleFactors.stream().anyMatch(sf -> !(sf > 0) || sf.isInfinite())) {
            throw new IllegalArgumentException("scale factors must be positive: " + scaleFactors);
        }
        if (nodes < 2 || nodes > 8) {
            throw new IllegalArgumentException("V8 needs 2 to 8 nodes, got " + nodes);
        }
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be positive: " + runs);
        }
        // checks threads and the transport's name
        new TpchSettings(scaleFactors.getFirst(), Placement.RANDOM, threads, transport);
        this.scaleFactors = List.copyOf(scaleFactors);
        this.queries = List.copyOf(queries);
        this.nodes = nodes;
        this.threads = threads;
        this.transport = transport;
        this.runs = runs;
        this.outputDirectory = outputDirectory;
        this.progress = progress;
    }

    /** One query at one scale factor and placement: bytes shuffled, median time, rows. */
    private record Point(long bytes, double seconds, int rows) {}

    public Report run() {
        Map<String, Point> points = new LinkedHashMap<>();
        for (double sf : scaleFactors) {
            // both placements' clusters at once, so that each query's runs alternate between them in one sitting
            try (TpchSession chunked = start(sf, Placement.RANDOM);
                    TpchSession firstKey = start(sf, Placement.FIRST_KEY)) {
                List<TpchSession> sessions = List.of(chunked, firstKey);
                progress.accept("SF " + sf + ": every query once as a warm-up, then " + runs + " run"
                        + (runs == 1 ? "" : "s") + ", the placements taking turns");
                Map<String, double[]> seconds = new LinkedHashMap<>();
                for (int run = 0; run <= runs; run++) {
                    for (int query : queries) {
                        for (int p = 0; p < PLACEMENTS.size(); p++) {
                            String key = key(sf, PLACEMENTS.get(p), query);
                            QueryOutcome outcome = sessions.get(p).run(query);
                            if (run > 0) {
                                seconds.computeIfAbsent(key, k -> new double[runs])[run - 1] =
                                        outcome.elapsedNanos() / 1e9;
                            }
                            points.put(
                                    key,
                                    new Point(
                                            outcome.bytesShuffled(),
                                            0,
                                            outcome.rows().size()));
                        }
                    }
                }
                seconds.forEach((key, values) -> {
                    Point point = points.get(key);
                    points.put(key, new Point(point.bytes(), Medians.of(values), point.rows()));
                });
            }
        }
        return report(points);
    }

    private TpchSession start(double sf, Placement placement) {
        ClusterConfig cluster = ClusterConfig.local(nodes).withWorkerHeap(TpchSession.workerHeapMiB(nodes, sf) + "m");
        return TpchSession.start(cluster, new TpchSettings(sf, placement, threads, transport), progress);
    }

    private Report report(Map<String, Point> points) {
        List<List<String>> tableRows = new ArrayList<>();
        List<List<String>> csvRows = new ArrayList<>();
        double scaling = ((nodes - 1) / (double) nodes) / ((PAPER_SERVERS - 1) / (double) PAPER_SERVERS);
        List<String> mismatches = new ArrayList<>();
        for (double sf : scaleFactors) {
            long[] totalBytes = new long[PLACEMENTS.size()];
            double[] totalSeconds = new double[PLACEMENTS.size()];
            for (int query : queries) {
                Point chunked = points.get(key(sf, Placement.RANDOM, query));
                Point partitioned = points.get(key(sf, Placement.FIRST_KEY, query));
                if (chunked.rows() != partitioned.rows()) {
                    mismatches.add("Q" + query + " at SF " + sf);
                }
                totalBytes[0] += chunked.bytes();
                totalBytes[1] += partitioned.bytes();
                totalSeconds[0] += chunked.seconds();
                totalSeconds[1] += partitioned.seconds();
                tableRows.add(row(
                        sf,
                        "Q" + query,
                        chunked.bytes(),
                        partitioned.bytes(),
                        chunked.seconds(),
                        partitioned.seconds(),
                        ""));
                for (int p = 0; p < PLACEMENTS.size(); p++) {
                    Point point = p == 0 ? chunked : partitioned;
                    csvRows.add(List.of(
                            Double.toString(sf),
                            Integer.toString(nodes),
                            Integer.toString(threads),
                            transport,
                            PLACEMENTS.get(p).optionName(),
                            Integer.toString(query),
                            Long.toString(point.bytes()),
                            format("%.4f", point.seconds()),
                            Integer.toString(point.rows())));
                }
            }
            String paper = String.format(
                    Locale.ROOT,
                    "paper at 6 servers: %.2f vs %.2f GB/SF (%.1fx), 4.92 vs 3.82 s; scaled to %d nodes: %.3f vs %.3f",
                    PAPER_CHUNKED_GB_PER_SF,
                    PAPER_PARTITIONED_GB_PER_SF,
                    PAPER_CHUNKED_GB_PER_SF / PAPER_PARTITIONED_GB_PER_SF,
                    nodes,
                    PAPER_CHUNKED_GB_PER_SF * scaling,
                    PAPER_PARTITIONED_GB_PER_SF * scaling);
            tableRows.add(row(
                    sf,
                    queries.size() == 22 ? "all" : "total",
                    totalBytes[0],
                    totalBytes[1],
                    totalSeconds[0],
                    totalSeconds[1],
                    paper));
            tableRows.add(List.of(
                    formatSf(sf),
                    "GB per SF",
                    format("%.3f", totalBytes[0] / 1e9 / sf),
                    format("%.3f", totalBytes[1] / 1e9 / sf),
                    format("%.2fx", totalBytes[0] / (double) Math.max(1, totalBytes[1])),
                    "",
                    "",
                    ""));
        }
        if (!mismatches.isEmpty()) {
            throw new IllegalStateException("the two placements returned different row counts: " + mismatches);
        }
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.number("SF"),
                ResultTable.Column.text("query"),
                ResultTable.Column.number("chunked MB"),
                ResultTable.Column.number("first-key MB"),
                ResultTable.Column.number("chunked/first-key"),
                ResultTable.Column.number("chunked s"),
                ResultTable.Column.number("first-key s"),
                ResultTable.Column.text("paper (Table 2)"));
        String table = "VLDB16 V8/V12: bytes shuffled per query, chunked (random) vs first-key placement, " + nodes
                + " nodes x " + threads + " threads over " + transport + " (bytes the exchanges sent, summed over the"
                + " nodes; median s of " + runs + ")\n"
                + new ResultTable(columns, tableRows).format();
        Path csv = outputDirectory.resolve("hyper-v8.csv");
        CsvWriter.write(
                csv,
                List.of("sf", "nodes", "threads", "transport", "placement", "query", "bytes", "seconds", "rows"),
                csvRows);
        Path plot = outputDirectory.resolve("hyper-v8.png");
        double sf = scaleFactors.getLast();
        List<Double> x = queries.stream().map(Integer::doubleValue).toList();
        List<PlotWriter.Line> lines = new ArrayList<>();
        for (Placement placement : PLACEMENTS) {
            lines.add(new PlotWriter.Line(
                    placement == Placement.RANDOM ? "chunked (random)" : "first-key",
                    x,
                    queries.stream()
                            .map(q -> points.get(key(sf, placement, q)).bytes() / 1e6)
                            .toList(),
                    placement == Placement.RANDOM));
        }
        PlotWriter.writeLines(
                plot,
                "VLDB16 V8/V12: MB shuffled per TPC-H query at SF " + formatSf(sf) + ", " + nodes + " nodes",
                "query",
                false,
                "MB shuffled",
                lines);
        return new Report(table, csv, plot);
    }

    private static List<String> row(
            double sf,
            String query,
            long chunked,
            long partitioned,
            double chunkedS,
            double partitionedS,
            String paper) {
        return List.of(
                formatSf(sf),
                query,
                format("%.2f", chunked / 1e6),
                format("%.2f", partitioned / 1e6),
                partitioned == 0 ? (chunked == 0 ? "-" : "inf") : format("%.2fx", chunked / (double) partitioned),
                format("%.3f", chunkedS),
                format("%.3f", partitionedS),
                paper);
    }

    private static String key(double sf, Placement placement, int query) {
        return sf + "/" + placement + "/" + query;
    }

    private static String formatSf(double sf) {
        return sf == Math.rint(sf) ? Long.toString((long) sf) : Double.toString(sf);
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
