package dev.faro.bench.middleware;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The tables of {@code faro bench middleware} with the paper's numbers beside ours ("paper" columns), and its
 * files: {@code middleware-v1.csv}, {@code middleware-v2.csv}, {@code middleware-v1.png}, {@code middleware-v2.png}
 * (and, with {@code fig5}, those of {@link TpccFigureReport}).
 *
 * @param text the tables as printed
 * @param files what was written
 */
public record MiddlewareReport(String text, List<Path> files) {

    /** DAIS16 Fig. 3: the best RDMA configuration took about 75 % less time than the best sockets one. */
    static final String PAPER_V1 = "-75 % time (4.0x)";
    /** DAIS16 Fig. 4: > 25 % spread across thresholds, 16 KB best on Soft-iWARP over 1 GbE. */
    static final String PAPER_V2 = ">25 % spread, 16 KB best";

    static MiddlewareReport write(
            MiddlewareBenchmarkConfig config,
            List<MiddlewareResult> v1,
            List<MiddlewareResult> v2,
            List<TpccFigureResult> fig5,
            Instant startedAt,
            Duration took) {
        StringBuilder text = new StringBuilder();
        List<Path> files = new ArrayList<>();
        try {
            Files.createDirectories(config.outputDirectory());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + config.outputDirectory() + ": " + e.getMessage(), e);
        }
        String fabric = "middleware/" + config.provider();
        // the synthetic shuffle's settings only when it ran (fig5 names its own in its table's title)
        String shuffle = v1.isEmpty() && v2.isEmpty()
                ? ""
                : String.format(
                        Locale.ROOT,
                        "%,d integers per process, 2 shuffles, %d KiB rings, V1 write threshold %,d B, ",
                        config.rowsPerProcess(),
                        config.ringBytes() / 1024,
                        config.writeThreshold());
        text.append(String.format(
                Locale.ROOT,
                "faro bench middleware: %smedians of %d run(s); started %s, took %d s%n%n",
                shuffle,
                config.runs(),
                startedAt,
                took.toSeconds()));
        if (!v1.isEmpty()) {
            text.append(v1Table(config, v1, fabric)).append('\n');
            text.append(v3Table(v1)).append('\n');
            text.append(v4Table(v1)).append('\n');
            Path csv = config.outputDirectory().resolve("middleware-v1.csv");
            CsvWriter.write(
                    csv, header(), v1.stream().map(MiddlewareReport::csvRow).toList());
            files.add(csv);
            Path png = config.outputDirectory().resolve("middleware-v1.png");
            List<PlotWriter.Line> lines = new ArrayList<>();
            for (int processes : config.processes()) {
                for (String transport : List.of(MiddlewareCase.NIO, MiddlewareCase.FABRIC)) {
                    List<MiddlewareResult> points = v1.stream()
                            .filter(r -> r.point().processes() == processes
                                    && r.point().transport().equals(transport))
                            .toList();
                    lines.add(new PlotWriter.Line(
                            (transport.equals(MiddlewareCase.NIO) ? "NIO" : fabric) + ", " + processes + " processes",
                            points.stream()
                                    .map(r -> (double) r.point().workersPerProcess())
                                    .toList(),
                            points.stream().map(MiddlewareResult::seconds).toList(),
                            transport.equals(MiddlewareCase.NIO)));
                }
            }
            PlotWriter.writeLines(
                    png, "DAIS16 V1: 2-stage shuffle time", "workers per process", false, "seconds", lines);
            files.add(png);
        }
        if (!v2.isEmpty()) {
            text.append(v2Table(config, v2)).append('\n');
            Path csv = config.outputDirectory().resolve("middleware-v2.csv");
            CsvWriter.write(
                    csv, header(), v2.stream().map(MiddlewareReport::csvRow).toList());
            files.add(csv);
            Path png = config.outputDirectory().resolve("middleware-v2.png");
            List<PlotWriter.Line> lines = new ArrayList<>();
            for (int processes : config.processes()) {
                List<MiddlewareResult> points = v2.stream()
                        .filter(r -> r.point().processes() == processes)
                        .toList();
                lines.add(new PlotWriter.Line(
                        processes + " processes x 2 workers",
                        points.stream()
                                .map(r -> r.point().writeThreshold() / 1024.0)
                                .toList(),
                        points.stream().map(MiddlewareResult::seconds).toList(),
                        false));
            }
            PlotWriter.writeLines(
                    png,
                    "DAIS16 V2: write threshold (" + fabric + ")",
                    "write threshold, KiB",
                    false,
                    "seconds",
                    lines);
            files.add(png);
        }
        if (!fig5.isEmpty()) {
            TpccFigureReport.write(config, fig5, text, files);
        }
        return new MiddlewareReport(text.toString(), List.copyOf(files));
    }

    private static String v1Table(MiddlewareBenchmarkConfig config, List<MiddlewareResult> v1, String fabric) {
        List<List<String>> rows = new ArrayList<>();
        for (int processes : config.processes()) {
            MiddlewareResult bestNio = best(v1, processes, MiddlewareCase.NIO);
            MiddlewareResult bestFabric = best(v1, processes, MiddlewareCase.FABRIC);
            for (int workers : config.workers()) {
                MiddlewareResult nio = find(v1, processes, workers, MiddlewareCase.NIO);
                MiddlewareResult mw = find(v1, processes, workers, MiddlewareCase.FABRIC);
                rows.add(List.of(
                        Integer.toString(processes),
                        Integer.toString(workers),
                        seconds(nio),
                        seconds(mw),
                        ratio(nio, mw),
                        cpu(nio),
                        cpu(mw),
                        ""));
            }
            if (bestNio != null && bestFabric != null) {
                rows.add(List.of(
                        Integer.toString(processes),
                        "best vs best",
                        seconds(bestNio) + " (" + bestNio.point().workersPerProcess() + "w)",
                        seconds(bestFabric) + " (" + bestFabric.point().workersPerProcess() + "w)",
                        ratio(bestNio, bestFabric)
                                + String.format(
                                        Locale.ROOT,
                                        " (%+.0f %%)",
                                        100 * (bestFabric.seconds() / bestNio.seconds() - 1)),
                        cpu(bestNio),
                        cpu(bestFabric),
                        PAPER_V1));
            }
        }
        return "V1 (Fig. 3): 2-stage shuffle time, NIO sockets against the middleware on the fabric (CPU s: the CPU time"
                + " of all processes during the shuffle, median run)\n"
                + new ResultTable(
                                List.of(
                                        Column.number("processes"),
                                        Column.text("workers/process"),
                                        Column.number("NIO s"),
                                        Column.number(fabric + " s"),
                                        Column.number("NIO / middleware"),
                                        Column.number("NIO CPU s"),
                                        Column.number("middleware CPU s"),
                                        Column.text("paper")),
                                rows)
                        .format();
    }

    private static String v2Table(MiddlewareBenchmarkConfig config, List<MiddlewareResult> v2) {
        List<List<String>> rows = new ArrayList<>();
        for (int processes : config.processes()) {
            List<MiddlewareResult> points =
                    v2.stream().filter(r -> r.point().processes() == processes).toList();
            if (points.isEmpty()) {
                continue;
            }
            double best =
                    points.stream().mapToDouble(MiddlewareResult::seconds).min().orElseThrow();
            double worst =
                    points.stream().mapToDouble(MiddlewareResult::seconds).max().orElseThrow();
            for (MiddlewareResult r : points) {
                rows.add(List.of(
                        Integer.toString(processes),
                        r.point().writeThreshold() / 1024 + " KiB"
                                + (r.point().writeThreshold() % 1024 != 0
                                        ? " + " + r.point().writeThreshold() % 1024 + " B"
                                        : ""),
                        seconds(r),
                        String.format(Locale.ROOT, "%+.0f %%", 100 * (r.seconds() / best - 1)),
                        ""));
            }
            MiddlewareResult optimum = points.stream()
                    .min(Comparator.comparingDouble(MiddlewareResult::seconds))
                    .orElseThrow();
            rows.add(List.of(
                    Integer.toString(processes),
                    "spread",
                    String.format(Locale.ROOT, "optimum %d KiB", optimum.point().writeThreshold() / 1024),
                    String.format(Locale.ROOT, "%.0f %%", 100 * (worst / best - 1)),
                    PAPER_V2));
        }
        return "V2 (Fig. 4): write threshold, 2 workers per process\n"
                + new ResultTable(
                                List.of(
                                        Column.number("processes"),
                                        Column.text("write threshold"),
                                        Column.number("seconds"),
                                        Column.number("vs best"),
                                        Column.text("paper")),
                                rows)
                        .format();
    }

    private static String v3Table(List<MiddlewareResult> v1) {
        List<List<String>> rows = new ArrayList<>();
        for (MiddlewareResult r : v1) {
            if (!r.point().transport().equals(MiddlewareCase.FABRIC)) {
                continue;
            }
            rows.add(List.of(
                    Integer.toString(r.point().processes()),
                    Integer.toString(r.point().workersPerProcess()),
                    String.format(Locale.ROOT, "%.1f", r.writesPerMib()),
                    String.format(Locale.ROOT, "%.1f", r.notificationsPerMib()),
                    String.format(
                            Locale.ROOT,
                            "%.2f",
                            r.notificationMessages() == 0
                                    ? Double.NaN
                                    : (double) r.notificationEntries() / r.notificationMessages()),
                    Long.toString(r.sendBlocks()),
                    "blocking on a full ring rare"));
        }
        return "V3: WRITEs and notifications per MiB between processes (the last run of each V1 point)\n"
                + new ResultTable(
                                List.of(
                                        Column.number("processes"),
                                        Column.number("workers/process"),
                                        Column.number("WRITEs/MiB"),
                                        Column.number("notifications/MiB"),
                                        Column.number("entries/notification"),
                                        Column.number("send blocks"),
                                        Column.text("paper")),
                                rows)
                        .format();
    }

    private static String v4Table(List<MiddlewareResult> v1) {
        List<List<String>> rows = new ArrayList<>();
        for (MiddlewareResult r : v1) {
            if (!r.point().transport().equals(MiddlewareCase.FABRIC)) {
                continue;
            }
            MiddlewareResult nio = find(v1, r.point().processes(), r.point().workersPerProcess(), MiddlewareCase.NIO);
            int m = r.point().processes();
            int n = r.point().workersPerProcess();
            rows.add(List.of(
                    Integer.toString(m),
                    Integer.toString(n),
                    Integer.toString(r.connectionsPerProcess()),
                    Integer.toString(r.ringsPerProcess()),
                    nio == null ? "-" : Integer.toString(nio.connectionsPerProcess()),
                    "m-1 = " + (m - 1) + " vs n*n*(m-1) = " + n * n * (m - 1)));
        }
        return "V4: connections per process\n"
                + new ResultTable(
                                List.of(
                                        Column.number("processes"),
                                        Column.number("workers/process"),
                                        Column.number("middleware connections"),
                                        Column.number("middleware rings"),
                                        Column.number("NIO channels"),
                                        Column.text("paper")),
                                rows)
                        .format();
    }

    private static List<String> header() {
        return List.of(
                "transport",
                "processes",
                "workers_per_process",
                "rows_per_process",
                "ring_bytes",
                "write_threshold",
                "seconds_median",
                "cpu_seconds_median",
                "writes",
                "remote_bytes",
                "notification_messages",
                "notification_entries",
                "send_blocks",
                "connections_per_process",
                "rings_per_process");
    }

    private static List<String> csvRow(MiddlewareResult r) {
        MiddlewareCase p = r.point();
        return List.of(
                p.transport(),
                Integer.toString(p.processes()),
                Integer.toString(p.workersPerProcess()),
                Long.toString(p.rowsPerProcess()),
                Integer.toString(p.ringBytes()),
                Integer.toString(p.writeThreshold()),
                String.format(Locale.ROOT, "%.4f", r.seconds()),
                String.format(Locale.ROOT, "%.4f", r.cpuSeconds()),
                Long.toString(r.writes()),
                Long.toString(r.remoteBytes()),
                Long.toString(r.notificationMessages()),
                Long.toString(r.notificationEntries()),
                Long.toString(r.sendBlocks()),
                Integer.toString(r.connectionsPerProcess()),
                Integer.toString(r.ringsPerProcess()));
    }

    private static MiddlewareResult find(List<MiddlewareResult> results, int processes, int workers, String transport) {
        return results.stream()
                .filter(r -> r.point().processes() == processes
                        && r.point().workersPerProcess() == workers
                        && r.point().transport().equals(transport))
                .findFirst()
                .orElse(null);
    }

    private static MiddlewareResult best(List<MiddlewareResult> results, int processes, String transport) {
        return results.stream()
                .filter(r -> r.point().processes() == processes
                        && r.point().transport().equals(transport))
                .min(Comparator.comparingDouble(MiddlewareResult::seconds))
                .orElse(null);
    }

    private static String seconds(MiddlewareResult r) {
        return r == null ? "-" : String.format(Locale.ROOT, "%.3f", r.seconds());
    }

    private static String cpu(MiddlewareResult r) {
        return r == null ? "-" : String.format(Locale.ROOT, "%.3f", r.cpuSeconds());
    }

    private static String ratio(MiddlewareResult nio, MiddlewareResult fabric) {
        return nio == null || fabric == null
                ? "-"
                : String.format(Locale.ROOT, "%.2fx", nio.seconds() / fabric.seconds());
    }
}
