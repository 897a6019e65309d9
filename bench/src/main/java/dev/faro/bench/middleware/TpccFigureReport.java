package dev.faro.bench.middleware;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.middleware.exchange.Dais16Transport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Fig. 5 analogue's table (times, speedups over the sequential run, and each query's best speedup with NIO and
 * with the middleware, next to the paper's gains) and its files {@code middleware-fig5.csv} and
 * {@code middleware-fig5.png}. Coordination code.
 */
final class TpccFigureReport {

    /** DAIS16 Fig. 5: the gains in maximum speedup the paper names (the smallest and largest per setup). */
    private static final Map<String, String> PAPER = Map.of(
            "4/2", "4 instances: +2.0 % (5.97x to 6.09x)",
            "4/3", "4 instances: +16.2 % (6.44x to 7.49x)",
            "8/3", "8 instances: +6.1 % (13.52x to 14.35x)",
            "8/1", "8 instances: +14.3 % (10.34x to 11.83x)");

    private TpccFigureReport() {}

    /** Appends the table to {@code text} and the files to {@code files}. */
    static void write(
            MiddlewareBenchmarkConfig config, List<TpccFigureResult> results, StringBuilder text, List<Path> files) {
        List<List<String>> rows = new ArrayList<>();
        List<List<String>> csv = new ArrayList<>();
        for (TpccFigureResult r : results) {
            double sequential = sequential(results, r.query());
            csv.add(List.of(
                    Integer.toString(r.query()),
                    r.transport(),
                    Integer.toString(r.processes()),
                    Integer.toString(r.workers()),
                    String.format(Locale.ROOT, "%.4f", r.seconds()),
                    String.format(Locale.ROOT, "%.3f", sequential / r.seconds()),
                    Integer.toString(r.rows())));
        }
        for (int processes : config.processes()) {
            for (int query : List.of(1, 2, 3)) {
                double sequential = sequential(results, query);
                double bestNio = 0;
                double bestFabric = 0;
                for (int workers : config.workers()) {
                    TpccFigureResult nio = find(results, query, Dais16Transport.NIO_NAME, processes, workers);
                    TpccFigureResult fabric = find(results, query, Dais16Transport.NAME, processes, workers);
                    bestNio = Math.max(bestNio, sequential / nio.seconds());
                    bestFabric = Math.max(bestFabric, sequential / fabric.seconds());
                    rows.add(List.of(
                            "Q" + query,
                            Integer.toString(processes),
                            Integer.toString(workers),
                            String.format(Locale.ROOT, "%.3f", sequential),
                            String.format(Locale.ROOT, "%.3f", nio.seconds()),
                            String.format(Locale.ROOT, "%.3f", fabric.seconds()),
                            String.format(Locale.ROOT, "%.2fx", sequential / nio.seconds()),
                            String.format(Locale.ROOT, "%.2fx", sequential / fabric.seconds()),
                            ""));
                }
                rows.add(List.of(
                        "Q" + query,
                        Integer.toString(processes),
                        "max speedup",
                        "",
                        "",
                        "",
                        String.format(Locale.ROOT, "%.2fx", bestNio),
                        String.format(Locale.ROOT, "%.2fx (%+.1f %%)", bestFabric, 100 * (bestFabric / bestNio - 1)),
                        PAPER.getOrDefault(processes + "/" + query, "")));
            }
        }
        text.append(String.format(
                        Locale.ROOT,
                        "Fig. 5: DAIS16's TPC-C queries (Listing 1.1), %d warehouses, through the engine; sequential ="
                                + " 1 process x 1 thread; medians of %d run(s) after a warm-up%n",
                        config.warehouses(),
                        config.runs()))
                .append(new ResultTable(
                                List.of(
                                        Column.text("query"),
                                        Column.number("processes"),
                                        Column.text("workers/process"),
                                        Column.number("sequential s"),
                                        Column.number("NIO s"),
                                        Column.number("middleware s"),
                                        Column.number("NIO speedup"),
                                        Column.number("middleware speedup"),
                                        Column.text("paper (gain in max speedup)")),
                                rows)
                        .format())
                .append('\n');
        Path csvFile = config.outputDirectory().resolve("middleware-fig5.csv");
        CsvWriter.write(
                csvFile,
                List.of("query", "transport", "processes", "workers_per_process", "seconds", "speedup", "rows"),
                csv);
        files.add(csvFile);
        Path png = config.outputDirectory().resolve("middleware-fig5.png");
        List<PlotWriter.Line> lines = new ArrayList<>();
        for (int query : List.of(1, 2, 3)) {
            for (String transport : List.of(Dais16Transport.NIO_NAME, Dais16Transport.NAME)) {
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                for (TpccFigureResult r : results) {
                    if (r.query() == query && r.transport().equals(transport)) {
                        x.add((double) r.processes() * r.workers());
                        y.add(r.seconds());
                    }
                }
                lines.add(new PlotWriter.Line(
                        "Q" + query + ", " + transport, x, y, transport.equals(Dais16Transport.NIO_NAME)));
            }
        }
        PlotWriter.writeLines(
                png, "DAIS16 Fig. 5: TPC-C queries, NIO vs middleware", "workers in all", false, "seconds", lines);
        files.add(png);
    }

    private static double sequential(List<TpccFigureResult> results, int query) {
        return results.stream()
                .filter(r -> r.query() == query && r.transport().equals(TpccFigureResult.SEQUENTIAL))
                .findFirst()
                .orElseThrow()
                .seconds();
    }

    private static TpccFigureResult find(
            List<TpccFigureResult> results, int query, String transport, int processes, int workers) {
        return results.stream()
                .filter(r -> r.query() == query
                        && r.transport().equals(transport)
                        && r.processes() == processes
                        && r.workers() == workers)
                .findFirst()
                .orElseThrow();
    }
}
