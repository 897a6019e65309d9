package dev.faro.bench.shuffle;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.bench.report.RunMetadata;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Turns shuffle throughput results into the terminal table and the report files: {@code shuffle-throughput.csv},
 * {@code shuffle-throughput.json} (machine and parameters) and {@code shuffle-throughput.png} (a bar per design and
 * node count) under the output directory. Coordination code.
 */
final class ThroughputReportWriter {

    static final String BASE_NAME = "shuffle-throughput";

    static final List<String> CSV_HEADER = List.of(
            "provider",
            "pattern",
            "nodes",
            "design",
            "threads",
            "tuple_bytes",
            "runs",
            "gbps_per_node",
            "mtuples_per_node",
            "gbps_min",
            "gbps_max",
            "ratio_to_best",
            "bytes_per_node",
            "response_seconds",
            "failure");

    private static final int WIDTH = 1000;
    private static final int HEIGHT = 620;

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private ThroughputReportWriter() {}

    static ShuffleThroughputReport write(
            ShuffleThroughputConfig config, List<ThroughputResult> results, RunMetadata metadata, List<String> notes) {
        Path directory = config.outputDirectory();
        Path csv = directory.resolve(BASE_NAME + ".csv");
        Path json = directory.resolve(BASE_NAME + ".json");
        Path png = directory.resolve(BASE_NAME + ".png");
        String provider = String.valueOf(metadata.parameters().get("provider"));
        CsvWriter.write(csv, CSV_HEADER, csvRows(provider, config, results));
        metadata.write(json);
        writePlot(png, provider, config, results);
        return new ShuffleThroughputReport(results, metadata, notes, csv, json, png);
    }

    /** The best median among the designs measured at {@code nodes} nodes (NaN if none succeeded). */
    static double best(List<ThroughputResult> results, int nodes) {
        return results.stream()
                .filter(r -> r.nodes() == nodes && r.succeeded())
                .mapToDouble(ThroughputResult::gigabytesPerSecond)
                .max()
                .orElse(Double.NaN);
    }

    /** One row per node count and design: medians, the spread of the runs and the ratio to the best design. */
    static String table(List<ThroughputResult> results, List<String> notes) {
        List<List<String>> rows = new ArrayList<>();
        for (ThroughputResult result : results) {
            if (!result.succeeded()) {
                rows.add(List.of(
                        Integer.toString(result.nodes()), result.design().paperName(), "failed", "", "", "", "", ""));
                continue;
            }
            rows.add(List.of(
                    Integer.toString(result.nodes()),
                    result.design().paperName(),
                    format("%.3f", result.gigabytesPerSecond()),
                    format("%.2f", result.megaTuplesPerSecond()),
                    format("%.3f-%.3f", result.minGigabytesPerSecond(), result.maxGigabytesPerSecond()),
                    format("%.3f", result.responseSeconds()),
                    Integer.toString(result.runs()),
                    format("%.2f", result.gigabytesPerSecond() / best(results, result.nodes()))));
        }
        ResultTable table = new ResultTable(
                List.of(
                        Column.number("nodes"),
                        Column.text("design"),
                        Column.number("GB/s per node"),
                        Column.number("M tuples/s per node"),
                        Column.number("runs GB/s"),
                        Column.number("response s"),
                        Column.number("runs"),
                        Column.number("vs best")),
                rows);
        StringBuilder text = new StringBuilder(table.format());
        for (ThroughputResult result : results) {
            if (!result.succeeded()) {
                text.append(String.format(
                        Locale.ROOT,
                        "%s at %d nodes failed: %s%n",
                        result.design().paperName(),
                        result.nodes(),
                        result.failure()));
            }
        }
        for (String note : notes) {
            text.append("note: ").append(note).append('\n');
        }
        return text.toString();
    }

    /** Where and how long it ran: cores, load at the start (shared machines are noisy), elapsed time. */
    static String machineLine(RunMetadata metadata) {
        return String.format(
                Locale.ROOT,
                "%d cores (%s), load average %.1f at start; %.0f s%n",
                metadata.machine().cores(),
                metadata.machine().cpuModel(),
                metadata.machine().loadAverage(),
                metadata.elapsed().toMillis() / 1000.0);
    }

    static List<List<String>> csvRows(String provider, ShuffleThroughputConfig config, List<ThroughputResult> results) {
        List<List<String>> rows = new ArrayList<>();
        for (ThroughputResult result : results) {
            boolean ok = result.succeeded();
            rows.add(List.of(
                    provider,
                    "repartition",
                    Integer.toString(result.nodes()),
                    result.design().paperName(),
                    Integer.toString(config.threads()),
                    Integer.toString(ShuffleTuples.TUPLE_BYTES),
                    Integer.toString(result.runs()),
                    ok ? format("%.4f", result.gigabytesPerSecond()) : "",
                    ok ? format("%.4f", result.megaTuplesPerSecond()) : "",
                    ok ? format("%.4f", result.minGigabytesPerSecond()) : "",
                    ok ? format("%.4f", result.maxGigabytesPerSecond()) : "",
                    ok ? format("%.4f", result.gigabytesPerSecond() / best(results, result.nodes())) : "",
                    ok ? format("%.0f", result.bytesPerNode()) : "",
                    ok ? format("%.4f", result.responseSeconds()) : "",
                    result.failure()));
        }
        return rows;
    }

    /** Grouped bars: designs on the x axis, one series per node count; a failed design gets no bar. */
    static void writePlot(Path file, String provider, ShuffleThroughputConfig config, List<ThroughputResult> results) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(String.format(
                        Locale.ROOT,
                        "Repartition receive throughput per node, %s, 16-byte tuples,"
                                + " %d thread%s per node (median of %d)",
                        provider,
                        config.threads(),
                        config.threads() == 1 ? "" : "s",
                        config.runs()))
                .xAxisTitle("design")
                .yAxisTitle("GB/s per node (1e9 bytes/s)")
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setLabelsRotation(90);
        chart.getStyler().setDecimalPattern("0.000");
        List<String> designs = config.designs().stream().map(d -> d.paperName()).toList();
        for (int nodes : config.nodeCounts()) {
            List<Double> values = new ArrayList<>();
            for (var design : config.designs()) {
                double value = results.stream()
                        .filter(r -> r.nodes() == nodes && r.design() == design)
                        .filter(ThroughputResult::succeeded)
                        .mapToDouble(ThroughputResult::gigabytesPerSecond)
                        .findFirst()
                        .orElse(0.0);
                values.add(value);
            }
            chart.addSeries(nodes + " nodes", designs, values);
        }
        try {
            Path directory = file.toAbsolutePath().getParent();
            if (directory != null) {
                Files.createDirectories(directory);
            }
            try (OutputStream out = Files.newOutputStream(file)) {
                BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static String format(String pattern, double... values) {
        Object[] boxed = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return String.format(Locale.ROOT, pattern, boxed);
    }
}
