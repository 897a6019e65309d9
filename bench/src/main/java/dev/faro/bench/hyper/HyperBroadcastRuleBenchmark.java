package dev.faro.bench.hyper;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.engine.plan.BroadcastRule;
import dev.faro.engine.tpch.Distribution;
import dev.faro.engine.tpch.Placement;
import dev.faro.engine.tpch.TpchJoin;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * V3 of the VLDB16 digest: the optimizer rule "broadcast the smaller input when the size ratio exceeds u − 1", with
 * u = n for a decoupled (hybrid) exchange and n·t for a classic one ({@link BroadcastRule}), applied to the TPC-H
 * plans' joins whose distribution it chooses ({@link TpchJoin}, estimated sizes). For each join: the largest node
 * count at which each mode still broadcasts, and the choice at the measured cluster (n nodes × t threads) for both
 * modes; a join whose choice differs between them flips. The plans the engine runs make the same choice
 * ({@link Distribution#join}). The paper (§3.1, 6 × 40): a broadcast pays above a ratio of 5 (hybrid) against 239
 * (classic). Coordination code.
 */
public final class HyperBroadcastRuleBenchmark {

    /** What a run printed and wrote. */
    public record Report(String table, Path csvFile, Path plotFile) {}

    private final List<Integer> nodeCounts;
    private final int threads;
    private final int measuredNodes;
    private final int measuredThreads;
    private final Path outputDirectory;

    /**
     * @param nodeCounts the node counts of the CSV and the plot
     * @param threads threads per node of the classic mode in the CSV and plot (the paper's 40)
     * @param measuredNodes, measuredThreads the cluster whose choices the table shows (e.g. 2 × 2)
     */
    public HyperBroadcastRuleBenchmark(
            List<Integer> nodeCounts, int threads, int measuredNodes, int measuredThreads, Path outputDirectory) {
        if (nodeCounts.isEmpty() || nodeCounts.stream().anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("node counts must be positive: " + nodeCounts);
        }
        if (threads < 1 || measuredNodes < 1 || measuredThreads < 1) {
            throw new IllegalArgumentException("nodes and threads must be positive");
        }
        this.nodeCounts = List.copyOf(nodeCounts);
        this.threads = threads;
        this.measuredNodes = measuredNodes;
        this.measuredThreads = measuredThreads;
        this.outputDirectory = outputDirectory;
    }

    public Report run() {
        Distribution hybrid = Distribution.hybrid(Placement.RANDOM, measuredNodes);
        Distribution classic = Distribution.classic(Placement.RANDOM, measuredNodes, measuredThreads);
        List<List<String>> tableRows = new ArrayList<>();
        List<List<String>> csvRows = new ArrayList<>();
        int flips = 0;
        for (TpchJoin join : TpchJoin.values()) {
            double ratio = join.sizeRatio();
            boolean hybridBroadcasts = hybrid.broadcasts(join);
            boolean classicBroadcasts = classic.broadcasts(join);
            flips += hybridBroadcasts != classicBroadcasts ? 1 : 0;
            // broadcast iff ratio > u - 1, i.e. u < ratio + 1: the most units that still broadcast
            long mostUnits = (long) Math.ceil(ratio + 1) - 1;
            tableRows.add(List.of(
                    "Q" + join.query(),
                    join.description(),
                    format("%.1f", ratio),
                    Long.toString(mostUnits),
                    Long.toString(mostUnits / threads),
                    choice(hybridBroadcasts),
                    choice(classicBroadcasts),
                    hybridBroadcasts != classicBroadcasts ? "flips" : ""));
            for (int nodes : nodeCounts) {
                long classicUnits = (long) nodes * threads;
                csvRows.add(List.of(
                        join.name(),
                        Integer.toString(join.query()),
                        format("%.0f", join.buildBytesPerScaleFactor()),
                        format("%.0f", join.probeBytesPerScaleFactor()),
                        format("%.3f", ratio),
                        Integer.toString(nodes),
                        Integer.toString(threads),
                        choice(BroadcastRule.broadcasts(
                                join.buildBytesPerScaleFactor(), join.probeBytesPerScaleFactor(), nodes)),
                        choice(BroadcastRule.broadcasts(
                                join.buildBytesPerScaleFactor(), join.probeBytesPerScaleFactor(), classicUnits))));
            }
        }
        String cluster = measuredNodes + "x" + measuredThreads;
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.text("query"),
                ResultTable.Column.text("join (build side to probe side)"),
                ResultTable.Column.number("est. ratio"),
                ResultTable.Column.number("broadcast up to units"),
                ResultTable.Column.number("classic nodes (t=" + threads + ")"),
                ResultTable.Column.text("hybrid " + measuredNodes),
                ResultTable.Column.text("classic " + cluster),
                ResultTable.Column.text(""));
        String table = "VLDB16 V3: broadcast when the size ratio exceeds n-1 (hybrid) vs n*t-1 (classic), on the"
                + " TPC-H plans' joins (estimated sizes; the paper at 6x40: above 5 vs above 239). At "
                + measuredNodes + " nodes x " + measuredThreads + " threads, " + flips + " of "
                + TpchJoin.values().length + " joins flip; \"broadcast up to units\": the most parallel units at"
                + " which the join still broadcasts (hybrid: nodes)\n"
                + new ResultTable(columns, tableRows).format();
        Path csv = outputDirectory.resolve("hyper-v3.csv");
        CsvWriter.write(
                csv,
                List.of(
                        "join",
                        "query",
                        "build bytes per SF",
                        "probe bytes per SF",
                        "size ratio",
                        "nodes",
                        "threads",
                        "hybrid",
                        "classic"),
                csvRows);
        Path plot = outputDirectory.resolve("hyper-v3.png");
        PlotWriter.writeLines(
                plot,
                "VLDB16 V3: broadcast pays above a line; the TPC-H joins' ratios dashed",
                "nodes",
                false,
                "size ratio",
                lines());
        return new Report(table, csv, plot);
    }

    private List<PlotWriter.Line> lines() {
        List<Double> x = new ArrayList<>();
        List<Double> hybridThreshold = new ArrayList<>();
        List<Double> measuredClassic = new ArrayList<>();
        for (int nodes : nodeCounts) {
            x.add((double) nodes);
            hybridThreshold.add((double) BroadcastRule.threshold(nodes));
            measuredClassic.add((double) BroadcastRule.threshold((long) nodes * measuredThreads));
        }
        List<PlotWriter.Line> lines = new ArrayList<>();
        lines.add(new PlotWriter.Line("hybrid: n-1", x, hybridThreshold, false));
        lines.add(new PlotWriter.Line("classic: n*" + measuredThreads + "-1", x, measuredClassic, false));
        double top = 4.0
                * measuredThreads
                * nodeCounts.stream().mapToInt(Integer::intValue).max().orElseThrow();
        for (TpchJoin join : TpchJoin.values()) {
            if (join.sizeRatio() <= top) {
                List<Double> ratio = x.stream().map(n -> join.sizeRatio()).toList();
                lines.add(new PlotWriter.Line(join.name(), x, ratio, true));
            }
        }
        return lines;
    }

    private static String choice(boolean broadcast) {
        return broadcast ? "broadcast" : "repartition";
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
