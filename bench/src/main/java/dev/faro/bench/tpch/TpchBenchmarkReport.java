package dev.faro.bench.tpch;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.MachineInfo;
import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.RunMetadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * The results of {@code faro bench tpch}: per query the median response time of each system, the best RC design,
 * and the ratios the issue asks for (MESQ/SR and the best RC design against DuckDB; MESQ/SR's speed-up over the TCP
 * baseline); on one node the engine alone against DuckDB per query and in total. Writes {@code tpch.csv} (every
 * system's median, min, max), {@code tpch.json} (run metadata) and {@code tpch.png} (bars per query) under the
 * output directory.
 */
public final class TpchBenchmarkReport {

    /** One timed run of one system; {@code bytesShuffled} is 0 for DuckDB. */
    record Measurement(int query, String system, long nanos, int rows, long bytesShuffled) {}

    /** Medians of one (query, system) pair. */
    record Summary(
            int query,
            String system,
            double medianSeconds,
            double minSeconds,
            double maxSeconds,
            int runs,
            int rows,
            long bytesShuffled) {}

    private final TpchBenchmarkConfig config;
    private final List<String> clusterSystems;
    private final List<Measurement> measurements;
    private final Instant started;
    private final Duration elapsed;
    private final Map<Integer, Map<String, Summary>> summaries = new LinkedHashMap<>();

    TpchBenchmarkReport(
            TpchBenchmarkConfig config,
            List<String> clusterSystems,
            List<Measurement> measurements,
            Instant started,
            Duration elapsed) {
        this.config = config;
        this.clusterSystems = List.copyOf(clusterSystems);
        this.measurements = List.copyOf(measurements);
        this.started = started;
        this.elapsed = elapsed;
        for (int query : config.queries()) {
            Map<String, Summary> bySystem = new LinkedHashMap<>();
            for (String system : systems()) {
                List<Measurement> runs = measurements.stream()
                        .filter(m -> m.query() == query && m.system().equals(system))
                        .toList();
                if (!runs.isEmpty()) {
                    bySystem.put(system, summarize(query, system, runs));
                }
            }
            summaries.put(query, bySystem);
        }
    }

    private List<String> systems() {
        List<String> systems = new ArrayList<>(clusterSystems);
        systems.add(TpchBenchmark.DUCKDB);
        return systems;
    }

    private static Summary summarize(int query, String system, List<Measurement> runs) {
        double[] seconds =
                runs.stream().mapToDouble(m -> m.nanos() / 1e9).sorted().toArray();
        double median = seconds.length % 2 == 1
                ? seconds[seconds.length / 2]
                : (seconds[seconds.length / 2 - 1] + seconds[seconds.length / 2]) / 2;
        return new Summary(
                query,
                system,
                median,
                seconds[0],
                seconds[seconds.length - 1],
                seconds.length,
                runs.getFirst().rows(),
                runs.getFirst().bytesShuffled());
    }

    /** The RC design with the lowest median for {@code query}. */
    String bestRcDesign(int query) {
        return summaries.get(query).values().stream()
                .filter(s -> !s.system().equals(TpchBenchmark.MESQ_SR)
                        && !s.system().equals(TpchBenchmark.TCP)
                        && !s.system().equals(TpchBenchmark.DUCKDB))
                .min(java.util.Comparator.comparingDouble(Summary::medianSeconds))
                .orElseThrow()
                .system();
    }

    double median(int query, String system) {
        return summaries.get(query).get(system).medianSeconds();
    }

    /** The headline table: one row per query. */
    public String table() {
        String title = String.format(
                Locale.ROOT,
                "TPC-H SF %s on %d node%s x %d threads, median of %d run%s%n",
                config.scaleFactor(),
                config.nodes(),
                config.nodes() == 1 ? "" : "s",
                config.threads(),
                config.runs(),
                config.runs() == 1 ? "" : "s");
        return title + (config.singleNode() ? singleNodeTable() : clusterTable());
    }

    /** One node: Faro's and DuckDB's medians, their ratio, and the totals over all queries. */
    private String singleNodeTable() {
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.text("query"),
                ResultTable.Column.number("Faro s"),
                ResultTable.Column.number("DuckDB s"),
                ResultTable.Column.number("Faro÷DuckDB"));
        List<List<String>> rows = new ArrayList<>();
        double faroTotal = 0;
        double duckTotal = 0;
        for (int query : config.queries()) {
            double faro = median(query, TpchBenchmark.FARO);
            double duck = median(query, TpchBenchmark.DUCKDB);
            faroTotal += faro;
            duckTotal += duck;
            rows.add(List.of("Q" + query, seconds(faro), seconds(duck), ratio(faro / duck)));
        }
        rows.add(List.of("total", seconds(faroTotal), seconds(duckTotal), ratio(faroTotal / duckTotal)));
        return new ResultTable(columns, rows).format();
    }

    private String clusterTable() {
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.text("query"),
                ResultTable.Column.number("MESQ/SR s"),
                ResultTable.Column.text("best RC"),
                ResultTable.Column.number("best RC s"),
                ResultTable.Column.number("TCP s"),
                ResultTable.Column.number("DuckDB s"),
                ResultTable.Column.number("MESQ/SR÷DuckDB"),
                ResultTable.Column.number("best RC÷DuckDB"),
                ResultTable.Column.number("TCP÷MESQ/SR"),
                ResultTable.Column.number("shuffled MB"));
        List<List<String>> rows = new ArrayList<>();
        for (int query : config.queries()) {
            String best = bestRcDesign(query);
            double mesq = median(query, TpchBenchmark.MESQ_SR);
            double rc = median(query, best);
            double tcp = median(query, TpchBenchmark.TCP);
            double duck = median(query, TpchBenchmark.DUCKDB);
            rows.add(List.of(
                    "Q" + query,
                    seconds(mesq),
                    best,
                    seconds(rc),
                    seconds(tcp),
                    seconds(duck),
                    ratio(mesq / duck),
                    ratio(rc / duck),
                    ratio(tcp / mesq),
                    String.format(
                            Locale.ROOT,
                            "%.1f",
                            summaries.get(query).get(TpchBenchmark.MESQ_SR).bytesShuffled() / 1e6)));
        }
        return new ResultTable(columns, rows).format();
    }

    /** Writes the CSV, JSON and PNG files; returns their paths. */
    public List<Path> write() {
        Path directory = config.outputDirectory();
        Path csv = directory.resolve("tpch.csv");
        Path json = directory.resolve("tpch.json");
        Path png = directory.resolve("tpch.png");
        List<List<String>> rows = new ArrayList<>();
        for (Map<String, Summary> bySystem : summaries.values()) {
            for (Summary s : bySystem.values()) {
                rows.add(List.of(
                        "Q" + s.query(),
                        s.system(),
                        seconds(s.medianSeconds()),
                        seconds(s.minSeconds()),
                        seconds(s.maxSeconds()),
                        String.valueOf(s.runs()),
                        String.valueOf(s.rows()),
                        String.valueOf(s.bytesShuffled())));
            }
        }
        CsvWriter.write(
                csv, List.of("query", "system", "median_s", "min_s", "max_s", "runs", "rows", "bytes_shuffled"), rows);
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("nodes", config.nodes());
        parameters.put("scaleFactor", config.scaleFactor());
        parameters.put("queries", config.queries().toString());
        parameters.put("threadsPerNode", config.threads());
        parameters.put("runs", config.runs());
        parameters.put("placement", "random");
        if (config.profileDirectory() != null) {
            parameters.put("profileDirectory", config.profileDirectory().toString());
        }
        parameters.put("duckdbThreads", Runtime.getRuntime().availableProcessors());
        new RunMetadata("tpch", started, elapsed, MachineInfo.collect(), parameters).write(json);
        writePlot(png);
        return List.of(csv, json, png);
    }

    private void writePlot(Path file) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(900)
                .height(500)
                .title(String.format(
                        Locale.ROOT, "TPC-H SF %s, %d nodes: response time", config.scaleFactor(), config.nodes()))
                .xAxisTitle("query")
                .yAxisTitle("seconds (median)")
                .build();
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        List<String> queries = config.queries().stream().map(q -> "Q" + q).toList();
        List<String> series = config.singleNode()
                ? List.of(TpchBenchmark.FARO, TpchBenchmark.DUCKDB)
                : List.of(TpchBenchmark.MESQ_SR, "best RC", TpchBenchmark.TCP, TpchBenchmark.DUCKDB);
        for (String system : series) {
            List<Double> values = new ArrayList<>();
            for (int query : config.queries()) {
                values.add(median(query, system.equals("best RC") ? bestRcDesign(query) : system));
            }
            chart.addSeries(system, queries, values);
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static String seconds(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    private static String ratio(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
