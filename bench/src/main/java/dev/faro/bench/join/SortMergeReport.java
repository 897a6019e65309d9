package dev.faro.bench.join;

import static dev.faro.bench.join.JoinBenchReport.format;
import static dev.faro.bench.join.JoinBenchReport.mega;

import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.join.model.SortMergeJoinModel;
import dev.faro.join.sortmerge.SortMergeJoinConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sort-merge join's part of {@code faro bench join}'s report: its per-core rates beside the thesis's, the Table
 * 4.2 analogue of its model (Eqs. 3.12–3.20) against the measured phases with the compute- or network-bound verdict
 * and the optimal thread count, and the fabric's bandwidth against message size.
 */
final class SortMergeReport {

    /** Thesis Table 4.2 (SMJ, 1,024 cores): measured and model, seconds; the merge's 1.78 is the table's (see digest). */
    static final double[][] PAPER_TABLE_4_2 = {
        {1.20, 1.00}, {0.06, Double.NaN}, {1.99, 1.78}, {1.81, 1.78}, {0.26, 0.22}, {0.38, Double.NaN}, {5.70, 4.78}
    };

    /** The run length the bench's sort-merge join uses. */
    static final int RUN_TUPLES = SortMergeJoinConfig.defaults(1).runTuples();

    private SortMergeReport() {}

    /** Every section, for the last sort-merge row (the rates for every row). */
    static String text(List<SortMergeRow> rows) {
        StringBuilder text = new StringBuilder();
        text.append(
                "\nsort-merge per-thread rates (micro-benchmarks: N x T threads at once, as many as the join runs on"
                        + " the host, each on one join thread's share (a node's volume over T) in the join's N x T key ranges, merged and"
                        + " matched as one, wall time from the first thread's start to the last one's end; best of"
                        + " the runs; these feed the model),"
                        + " M tuples/s, beside the thesis's Table 4.2 parameters\n");
        text.append(ratesTable(rows).format());
        SortMergeRow last = rows.getLast();
        SortMergeJoinModel model = last.model(RUN_TUPLES);
        text.append(String.format(
                Locale.ROOT,
                "%nTable 4.2 analogue, sort-merge join: %s, %d nodes x %d threads (seconds; the model fed by the"
                        + " micro-benchmarks' peak rates, wall and per CPU second as for the radix join; runs of %d"
                        + " tuples, merge fan-in %d, depth %d; the thesis: 1,024 cores, fan-in such that d = 3)%n",
                last.workload(),
                last.nodes(),
                last.threads(),
                RUN_TUPLES,
                last.rates().fanIn(),
                model.mergeDepth(model.outer())));
        text.append(ModelTable.text(
                modelPhases(last),
                rows.stream()
                        .map(row -> row.workload() + " " + row.nodes() + "x" + row.threads())
                        .toList(),
                rows.stream().map(SortMergeReport::modelPhases).toList()));
        text.append(String.format(
                Locale.ROOT,
                "SMJ model: %s (Eq. 3.3 for sorting: (N-1)/N x P_sort_run = %.1f M/s vs P_network = bw/T = %s);"
                        + " threads per node that saturate the network when sorting (bw / P_sort_run): %s (the thesis:"
                        + " 9 on QDR, 17 on FDR)%n",
                model.networkBound() ? "network-bound" : "compute-bound",
                (last.nodes() - 1.0) / last.nodes() * model.sortRunRate() / 1e6,
                last.measured().bandwidthBytesPerSecond() > 0
                        ? String.format(Locale.ROOT, "%.1f M/s", model.networkRatePerThread() / 1e6)
                        : "not measured (1 node)",
                last.measured().bandwidthBytesPerSecond() > 0
                        ? String.format(Locale.ROOT, "%.1f", model.optimalThreads())
                        : "-"));
        if (!last.bandwidthCurve().isEmpty()) {
            text.append("\nfabric bandwidth against message size (rank 0 puts to rank 1, 8 outstanding), measured"
                    + " before the sort-merge runs\n");
            text.append(curveTable(last.bandwidthCurve()).format());
        }
        return text.toString();
    }

    private static ResultTable ratesTable(List<SortMergeRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (SortMergeRow row : rows) {
            SortMergeRates r = row.rates();
            SortMergeRates c = row.cpuRates();
            String point = row.workload() + " " + row.nodes() + "x" + row.threads();
            // the share of a core each component's threads got: wall rate over rate per CPU second
            cells.add(rate(point, "scan (splitters + histogram)", r.scan(), r.scan() / c.scan(), 225));
            cells.add(rate(point, "partition (range scatter)", r.partition(), r.partition() / c.partition(), 120));
            cells.add(rate(point, "sort run (l = " + RUN_TUPLES + ")", r.sortRun(), r.sortRun() / c.sortRun(), 45));
            cells.add(rate(point, "merge (fan-in " + r.fanIn() + ")", r.merge(), r.merge() / c.merge(), 270));
            cells.add(rate(point, "match (merge-join scan)", r.match(), r.match() / c.match(), 370));
        }
        return new ResultTable(
                List.of(
                        Column.text("point"),
                        Column.text("phase"),
                        Column.number("ours"),
                        Column.number("CPU share"),
                        Column.number("per CPU-s"),
                        Column.number("paper"),
                        Column.number("paper/ours"),
                        Column.text("")),
                cells);
    }

    private static List<String> rate(String point, String phase, double rate, double cpuShare, double paper) {
        return JoinBenchReport.rateRow(point, phase, rate, cpuShare, format("%.0f", paper), paper);
    }

    /**
     * The sort-merge join's Table 4.2 rows: partitioning (min and max, histogram, scatter and the collectives, as the
     * thesis's phase (i); modelled by Eqs. 3.1 + 3.7, with the kernels' own wall time below it), window allocation,
     * sorting with the transfer, merging, matching, imbalance and total.
     */
    static List<ModelTable.Phase> modelPhases(SortMergeRow row) {
        SortMergeJoinModel model = row.model(RUN_TUPLES);
        SortMergeJoinModel cpu = row.cpuModel(RUN_TUPLES);
        return ModelTable.of(
                new String[] {
                    "partitioning (histogram + pass)",
                    "  of which the kernels",
                    "window allocation",
                    "sorting",
                    "merging",
                    "matching",
                    "imbalance",
                    "total"
                },
                row.measured(),
                new double[] {
                    model.histogramSeconds() + model.partitionSeconds(),
                    model.sortSeconds(),
                    model.mergeSeconds(),
                    model.matchSeconds(),
                    model.totalSeconds()
                },
                new double[] {
                    cpu.histogramSeconds() + cpu.partitionSeconds(),
                    cpu.sortSeconds(),
                    cpu.mergeSeconds(),
                    cpu.matchSeconds()
                },
                new boolean[] {true, true, true, true},
                PAPER_TABLE_4_2);
    }

    private static ResultTable curveTable(List<double[]> curve) {
        List<List<String>> cells = new ArrayList<>();
        for (double[] point : curve) {
            cells.add(List.of(format("%.0f", point[0] / 1024), format("%.0f", point[1] / 1e6), mega(point[1] / 16)));
        }
        return new ResultTable(
                List.of(Column.number("message KiB"), Column.number("MB/s"), Column.number("M tuples/s")), cells);
    }
}
