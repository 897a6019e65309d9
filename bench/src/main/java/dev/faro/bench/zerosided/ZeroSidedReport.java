package dev.faro.bench.zerosided;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.Medians;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.RunMetadata;
import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.switching.ZeroSidedSwitch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes {@code faro bench zerosided}'s results: a table (medians; the switch's forwarding rate first; ratios to it
 * and to the one-driver baseline; the drivers' CPU time; the endpoint threads' communication time; the paper's
 * column), {@code zerosided.csv} (every run), {@code zerosided.json} and {@code zerosided.png}.
 *
 * <p>Coordination code.
 */
final class ZeroSidedReport {

    static final String PAPER_ROW = "flat near line rate; 1 core falls behind as flows grow";

    private ZeroSidedReport() {}

    static ZeroSidedBenchmark.Report write(
            ZeroSidedBenchConfig config,
            double forwardingBytesPerSecond,
            double forwardingPacketsPerSecond,
            Map<String, Map<Integer, List<Double>>> throughput,
            Map<String, Map<Integer, List<Double>>> driverCpuSeconds,
            Map<String, Map<Integer, List<Double>>> endpointWork,
            Map<Integer, List<Double>> communicationNanos,
            Map<Integer, List<Double>> switchRetries,
            long payloadHighWaterBytes,
            List<ExperimentResult> experiments,
            RunMetadata metadata) {
        List<String> series = List.copyOf(throughput.keySet());
        String zeroSided = series.getFirst();
        String oneDriver = series.size() > 1 ? series.get(1) : null;

        List<ResultTable.Column> columns = new ArrayList<>();
        columns.add(ResultTable.Column.number("flows"));
        for (String name : series) {
            columns.add(ResultTable.Column.number(name + " GB/s"));
        }
        columns.add(ResultTable.Column.number("zero-sided / forwarding"));
        if (oneDriver != null) {
            columns.add(ResultTable.Column.number("zero-sided / " + oneDriver));
        }
        for (String name : series.subList(1, series.size())) {
            columns.add(ResultTable.Column.number(name.replace("cpu-driven ", "") + " CPU s"));
        }
        boolean busy = config.endpointWork() > 0;
        if (busy) {
            for (String name : series) {
                columns.add(ResultTable.Column.number(name.replace("cpu-driven ", "") + " work Mu/s"));
            }
        }
        columns.add(ResultTable.Column.number("endpoint comm. ns"));
        columns.add(ResultTable.Column.number("switch retries"));
        columns.add(ResultTable.Column.text("paper (Fig. 6)"));

        List<List<String>> rows = new ArrayList<>();
        List<List<String>> csvRows = new ArrayList<>();
        for (int flows : config.flows()) {
            List<String> row = new ArrayList<>();
            row.add(Integer.toString(flows));
            for (String name : series) {
                row.add(gigabytes(Medians.of(throughput.get(name).get(flows))));
                List<Double> runs = throughput.get(name).get(flows);
                List<Double> cpu = driverCpuSeconds.get(name).get(flows);
                for (int run = 0; run < runs.size(); run++) {
                    csvRows.add(List.of(
                            name,
                            Integer.toString(flows),
                            Integer.toString(run + 1),
                            format(runs.get(run)),
                            format(cpu.get(run)),
                            name.equals(zeroSided)
                                    ? format(communicationNanos.get(flows).get(run))
                                    : "",
                            format(forwardingBytesPerSecond),
                            format(endpointWork.get(name).get(flows).get(run))));
                }
            }
            double ours = Medians.of(throughput.get(zeroSided).get(flows));
            row.add(ratio(ours / forwardingBytesPerSecond));
            if (oneDriver != null) {
                row.add(ratio(ours / Medians.of(throughput.get(oneDriver).get(flows))));
            }
            for (String name : series.subList(1, series.size())) {
                row.add(String.format(
                        Locale.ROOT,
                        "%.2f",
                        Medians.of(driverCpuSeconds.get(name).get(flows))));
            }
            if (busy) {
                for (String name : series) {
                    row.add(String.format(
                            Locale.ROOT,
                            "%.3f",
                            Medians.of(endpointWork.get(name).get(flows)) / 1e6));
                }
            }
            row.add(String.format(Locale.ROOT, "%.0f", Medians.of(communicationNanos.get(flows))));
            row.add(String.format(Locale.ROOT, "%.0f", Medians.of(switchRetries.get(flows))));
            row.add(PAPER_ROW);
            rows.add(row);
        }
        String header = String.format(
                Locale.ROOT,
                "switch's own forwarding rate (node 0, perfect NICs, no I/O): %s GB/s payload, %.0f packets/s"
                        + " (paper: a Tofino port forwards at 100 Gb/s line rate)%n"
                        + "%d B items, median of %d run(s) of %.1f s; zero-sided over simulated NICs + %s,"
                        + " CPU-driven over the %s verbs fabric; the switch held at most %d B of payload at once%n"
                        + "switch state per 1:1 pair: %d B (paper: ~50 B registers + ~700 B tables on a Tofino)%n%s",
                gigabytes(forwardingBytesPerSecond),
                forwardingPacketsPerSecond,
                config.itemBytes(),
                config.runs(),
                config.seconds(),
                LinkKind.of(config.link()).description(),
                config.provider(),
                payloadHighWaterBytes,
                ZeroSidedSwitch.stateBytesPerPair(),
                placementLine(config));
        StringBuilder table = new StringBuilder(
                header + new ResultTable(columns, rows).format() + "paper: " + ZeroSidedBenchmark.PAPER_FIG6 + "\n");
        List<Path> experimentFiles = new ArrayList<>();
        for (ExperimentResult experiment : experiments) {
            table.append('\n').append(experiment.text());
            Path file = config.outputDirectory().resolve("zerosided-" + experiment.name() + ".csv");
            CsvWriter.write(file, experiment.csvHeader(), experiment.csvRows());
            experimentFiles.add(file);
            Path png = config.outputDirectory().resolve("zerosided-" + experiment.name() + ".png");
            if (experiment.name().equals(NmShuffle.NAME)) {
                NmShuffle.plot(experiment, png);
                experimentFiles.add(png);
            } else if (experiment.name().equals(ReplicationOrder.NAME)) {
                ReplicationOrder.plot(experiment, png);
                experimentFiles.add(png);
            } else if (experiment.name().equals(DistributedJoin.NAME)) {
                DistributedJoin.plot(experiment, png);
                experimentFiles.add(png);
            }
        }

        Path directory = config.outputDirectory();
        Path csv = directory.resolve("zerosided.csv");
        CsvWriter.write(
                csv,
                List.of(
                        "series",
                        "flows",
                        "run",
                        "bytes_per_second",
                        "driver_cpu_seconds",
                        "endpoint_communication_ns",
                        "switch_forwarding_bytes_per_second",
                        "endpoint_work_units_per_second"),
                csvRows);
        Path metadataFile = directory.resolve("zerosided.json");
        metadata.write(metadataFile);
        List<PlotWriter.Line> lines = new ArrayList<>();
        List<Double> x = config.flows().stream().map(Integer::doubleValue).toList();
        for (String name : series) {
            List<Double> y = config.flows().stream()
                    .map(f -> Medians.of(throughput.get(name).get(f)) / 1e9)
                    .toList();
            lines.add(new PlotWriter.Line(name, x, y, !name.equals(zeroSided)));
        }
        lines.add(new PlotWriter.Line(
                "switch forwarding rate",
                x,
                x.stream().map(v -> forwardingBytesPerSecond / 1e9).toList(),
                true));
        Path plot = directory.resolve("zerosided.png");
        if (busy) {
            List<PlotWriter.Line> workLines = new ArrayList<>();
            for (String name : series) {
                List<Double> y = config.flows().stream()
                        .map(f -> Medians.of(endpointWork.get(name).get(f)) / 1e6)
                        .toList();
                workLines.add(new PlotWriter.Line(name, x, y, !name.equals(zeroSided)));
            }
            Path workPlot = directory.resolve("zerosided-work.png");
            PlotWriter.writeLines(
                    workPlot,
                    "Endpoints' useful work on their CPU (units of " + config.endpointWork()
                            + " hash rounds; paper: zero-sided leaves it all to the PUs)",
                    "concurrent flows (producer + consumer threads each)",
                    false,
                    "M units/s",
                    workLines);
            experimentFiles.add(workPlot);
        }
        PlotWriter.writeLines(
                plot,
                "Zero-sided vs CPU-driven one-sided (" + config.itemBytes() + " B items; cf. SIGMOD24 Fig. 6)",
                "concurrent flows (producer + consumer threads each)",
                false,
                "GB/s",
                lines);
        return new ZeroSidedBenchmark.Report(table.toString(), csv, plot, metadataFile, experimentFiles);
    }

    private static String placementLine(ZeroSidedBenchConfig config) {
        if (!config.pin() && config.endpointWork() == 0) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "placement: %s; endpoints %s%n",
                config.pin()
                        ? "the network (switch, NICs, fabric progress threads) on the first CPU, producers,"
                                + " consumers and drivers on the last"
                        : "unpinned",
                config.endpointWork() > 0
                        ? "compute-bound (units of " + config.endpointWork() + " hash rounds between items; work"
                                + " Mu/s = their useful work)"
                        : "only push and pop");
    }

    private static String gigabytes(double bytesPerSecond) {
        return String.format(Locale.ROOT, "%.3f", bytesPerSecond / 1e9);
    }

    private static String ratio(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.2f", value) : "-";
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
