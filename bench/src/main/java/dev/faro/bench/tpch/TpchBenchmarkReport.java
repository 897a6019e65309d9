package dev.faro.bench.tpch;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.MachineInfo;
import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.RunMetadata;
import dev.faro.shuffle.transport.BuiltInTransports;
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
 * The results of {@code faro bench tpch}: per query and in total the median response time of each transport and of
 * DuckDB, the fastest transport, and the ratios (the first transport and the fastest one against DuckDB; the TCP
 * baseline against the fastest other transport); on one node the engine alone ({@code Faro}) against DuckDB. Writes
 * {@code tpch.csv} (every system's median, min, max), {@code tpch.json} (run metadata) and {@code tpch.png} (bars per
 * query) under the output directory.
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

    double median(int query, String system) {
        return summaries.get(query).get(system).medianSeconds();
    }

    /** The sum over the queries of {@code system}'s medians. */
    double total(String system) {
        double total = 0;
        for (int query : config.queries()) {
            total += median(query, system);
        }
        return total;
    }

    /**
     * The headline table: one row per query and a total row (sums of medians): each transport's median, DuckDB's,
     * the fastest transport, the first transport's and the fastest one's ratio to DuckDB, and (with the TCP
     * baseline among the transports) TCP's ratio to the fastest other transport.
     */
    public String table() {
        String first = clusterSystems.getFirst();
        boolean tcp = clusterSystems.contains(BuiltInTransports.TCP) && clusterSystems.size() > 1;
        List<ResultTable.Column> columns = new ArrayList<>();
        columns.add(ResultTable.Column.text("query"));
        for (String system : clusterSystems) {
            columns.add(ResultTable.Column.number(system + " s"));
        }
        columns.add(ResultTable.Column.number("DuckDB s"));
        columns.add(ResultTable.Column.text("best"));
        columns.add(ResultTable.Column.number(first + "÷DuckDB"));
        columns.add(ResultTable.Column.number("best÷DuckDB"));
        if (tcp) {
            columns.add(ResultTable.Column.number("TCP÷best other"));
        }
        columns.add(ResultTable.Column.number("shuffled MB"));
        List<List<String>> rows = new ArrayList<>();
        for (int query : config.queries()) {
            Map<String, Double> medians = new LinkedHashMap<>();
            for (String system : systems()) {
                medians.put(system, median(query, system));
            }
            rows.add(row("Q" + query, medians, summaries.get(query).get(first).bytesShuffled() / 1e6, tcp));
        }
        Map<String, Double> totals = new LinkedHashMap<>();
        for (String system : systems()) {
            totals.put(system, total(system));
        }
        double shuffled = 0;
        for (int query : config.queries()) {
            shuffled += summaries.get(query).get(first).bytesShuffled() / 1e6;
        }
        rows.add(row("total", totals, shuffled, tcp));
        return String.format(
                        Locale.ROOT,
                        "TPC-H SF %s on %d node%s x %d threads, median of %d run%s%n",
                        config.scaleFactor(),
                        config.nodes(),
                        config.nodes() == 1 ? "" : "s",
                        config.threads(),
                        config.runs(),
                        config.runs() == 1 ? "" : "s")
                + new ResultTable(columns, rows).format();
    }

    /** One line of the table from each system's seconds (DuckDB's last). */
    private List<String> row(String label, Map<String, Double> seconds, double shuffledMegabytes, boolean tcp) {
        String first = clusterSystems.getFirst();
        String best = clusterSystems.stream()
                .min(java.util.Comparator.comparingDouble(seconds::get))
                .orElseThrow();
        double duck = seconds.get(TpchBenchmark.DUCKDB);
        List<String> row = new ArrayList<>();
        row.add(label);
        for (String system : clusterSystems) {
            row.add(seconds(seconds.get(system)));
        }
        row.add(seconds(duck));
        row.add(best);
        row.add(ratio(seconds.get(first) / duck));
        row.add(ratio(seconds.get(best) / duck));
        if (tcp) {
            double bestOther = clusterSystems.stream()
                    .filter(system -> !system.equals(BuiltInTransports.TCP))
                    .mapToDouble(seconds::get)
                    .min()
                    .orElseThrow();
            row.add(ratio(seconds.get(BuiltInTransports.TCP) / bestOther));
        }
        row.add(String.format(Locale.ROOT, "%.1f", shuffledMegabytes));
        return row;
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
        parameters.put("transports", String.join(",", clusterSystems));
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
        for (String system : systems()) {
            List<Double> values = new ArrayList<>();
            for (int query : config.queries()) {
                values.add(median(query, system));
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
