package dev.faro.bench.join;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.MachineInfo;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.bench.report.RunMetadata;
import dev.faro.join.model.RadixJoinModel;
import dev.faro.join.radix.PhaseTimes;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The output of {@code faro bench join}: the main table (throughput against the single-process join, the phase
 * breakdown and the model), the per-core rates next to the thesis's, the Table 4.2 analogue (measured against
 * model, beside the thesis's own figures) and, when skewed workloads ran, the skew slowdowns beside the thesis's;
 * {@code join.csv}, {@code join.json} (machine and parameters) and {@code join.png} (throughput by node count)
 * under the output directory.
 *
 * @param text everything printed
 * @param csvFile the CSV
 * @param metadataFile the JSON sidecar
 * @param plotFile the PNG
 * @param rows the measured radix join rows
 * @param sortMergeRows the measured sort-merge join rows
 */
public record JoinBenchReport(
        String text,
        Path csvFile,
        Path metadataFile,
        Path plotFile,
        List<JoinRow> rows,
        List<SortMergeRow> sortMergeRows) {

    /** Thesis per-core rates, M tuples/s (Table 4.2 parameters on the Cray; rack-scale partitioning 110). */
    static final double PAPER_SCAN = 225;

    static final String PAPER_PARTITION = "110-120";
    static final double PAPER_PARTITION_LOW = 110;
    static final double PAPER_BUILD_PROBE = 210;

    /** Thesis Table 4.2 (RHJ, 1,024 cores, 40 M tuples per relation per core): measured and model, seconds. */
    static final double[][] PAPER_TABLE_4_2 = {
        {0.34, 0.36}, {0.21, Double.NaN}, {2.08, 0.67}, {0.58, 0.67}, {0.51, 0.38}, {0.62, Double.NaN}, {4.34, 2.08}
    };

    static JoinBenchReport write(
            JoinBenchConfig config,
            List<JoinRow> rows,
            List<SortMergeRow> sortMergeRows,
            Instant started,
            Duration elapsed) {
        StringBuilder text = new StringBuilder();
        text.append(mainTable(rows).format());
        text.append("ratio: distributed over single-process throughput on the same total cores, each with its"
                + " allocation (the distributed window phase; the reference's first-pass output and scratch); w/o"
                + " alloc: both without it; CPU share:"
                + " CPU time over wall time per thread, distributed (mean over nodes) / reference; per CPU: the"
                + " ratio times reference share / distributed share\n");
        text.append("\nper-core rates (single-process join, 1 thread, one node's data), M tuples/s per wall second; CPU"
                + " share: the thread's CPU time over wall time (below 1 on a loaded host), per CPU-s: the rate"
                + " over it; a wall rate more than 10x below the thesis's is flagged\n");
        text.append(ratesTable(rows).format());
        JoinRow last = rows.getLast();
        text.append(String.format(
                Locale.ROOT,
                "%nTable 4.2 analogue: %s, %d nodes x %d threads, k = %d (seconds; the model fed by the peak"
                        + " per-thread rates, best of the runs, of the single-process join on the same total cores;"
                        + " wall: the phase's wall time, mean over nodes, against the model of wall rates, the"
                        + " thesis's convention; CPU/thread: the phase's mean per-thread CPU time against the model of"
                        + " rates per CPU second, which load inflates far less (the network pass's without its CPU time"
                        + " in the fabric: on shm the put's copy, an RDMA NIC's work); the thesis: 1,024 cores, 40 M + 40 M"
                        + " tuples per core)%n",
                last.workload(),
                last.nodes(),
                last.threads(),
                last.buffers()));
        text.append(ModelTable.text(
                modelPhases(last),
                rows.stream()
                        .map(row -> row.workload() + " " + row.nodes() + "x" + row.threads() + " k=" + row.buffers()
                                + (row.bandwidthCap() > 0 ? " " + cap(row.bandwidthCap()) : ""))
                        .toList(),
                rows.stream().map(JoinBenchReport::modelPhases).toList()));
        RadixJoinModel model = last.model();
        text.append(String.format(
                Locale.ROOT,
                "model: %s (Eq. 3.3: (N-1)/N x P_partition = %.1f M/s vs P_network = bw/T = %s); threads per node that"
                        + " saturate the network (bw / P_partition): %s%n",
                model.networkBound() ? "network-bound" : "compute-bound",
                (last.nodes() - 1.0) / last.nodes() * model.partitionRate() / 1e6,
                last.measured().bandwidthBytesPerSecond() > 0
                        ? String.format(Locale.ROOT, "%.1f M/s", model.networkRatePerThread() / 1e6)
                        : "not measured (1 node)",
                last.measured().bandwidthBytesPerSecond() > 0
                        ? String.format(Locale.ROOT, "%.1f", model.optimalThreads())
                        : "-"));
        text.append("\nnetwork pass against its compute and transfer parts (compute: the pass at the partition rate of"
                + " the single-process join on the same cores; transfer: bytes put per node / bw); k = 1 should"
                + " show their sum, k >= 2 their maximum\n");
        text.append(overlapTable(rows).format());
        if (!sortMergeRows.isEmpty()) {
            text.append("\nsort-merge join (runs of 8 Ki tuples sorted in cache and shipped while the next is sorted),"
                    + " against the radix hash join at the same point; the thesis: SMJ about 2x slower rack-scale"
                    + " (1.31x on 1,024 Cray cores, Table 4.1)\n");
            text.append(sortMergeTable(sortMergeRows).format());
            text.append(SortMergeReport.text(sortMergeRows));
        }
        String scaling = ScalingTable.text(rows);
        if (!scaling.isEmpty()) {
            text.append("\nstrong scaling: the same total input on more nodes (speed-up and efficiency against the"
                    + " smallest node count of the same threads per node, k and cap)\n");
            text.append(scaling);
        }
        String skew = skewTable(rows);
        if (!skew.isEmpty()) {
            text.append("\nskew: time against uniform 1:4 on the same nodes (the thesis, 4 machines: 1.20x at Zipf"
                    + " 1.05, 2.03x at 1.20)\n");
            text.append(skew);
        }
        Path directory = config.outputDirectory();
        Path csv = directory.resolve("join.csv");
        Path json = directory.resolve("join.json");
        Path png = directory.resolve("join.png");
        CsvWriter.write(csv, JoinReportData.csvHeader(), JoinReportData.csvRows(rows));
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("provider", config.provider());
        parameters.put("nodes", config.nodeCounts());
        parameters.put("threads", config.threadCounts());
        parameters.put("workloads", config.workloads());
        parameters.put("innerTuplesPerNode", config.innerPerNode());
        parameters.put("buffers", config.bufferCounts());
        parameters.put("bufferBytes", config.bufferBytes());
        parameters.put("networkBits", config.networkBits());
        parameters.put("warmups", config.warmups());
        parameters.put("runs", config.runs());
        parameters.put("scalings", config.scalings());
        new RunMetadata("join", started, elapsed, MachineInfo.collect(), parameters).write(json);
        PlotWriter.writeLines(
                png,
                "ETH19 radix hash join",
                "nodes",
                false,
                "M tuples/s (|R|+|S| / time)",
                JoinReportData.lines(rows, config));
        if (config.bandwidthCaps().stream().filter(c -> c > 0).count() > 1) {
            Path crossover = directory.resolve("join-crossover.png");
            PlotWriter.writeLines(
                    crossover,
                    "RHJ against the bandwidth per node (compute- vs network-bound)",
                    "bandwidth cap per node, MiB/s",
                    true,
                    "M tuples/s",
                    JoinReportData.crossoverLines(rows, config));
            text.append("crossover plot: ").append(crossover).append('\n');
        }
        return new JoinBenchReport(text.toString(), csv, json, png, List.copyOf(rows), List.copyOf(sortMergeRows));
    }

    private static ResultTable mainTable(List<JoinRow> rows) {
        List<Column> columns = List.of(
                Column.text("workload"),
                Column.text("scaling"),
                Column.number("N"),
                Column.number("T"),
                Column.number("k"),
                Column.text("cap"),
                Column.number("RHJ M/s"),
                Column.number("1-proc M/s"),
                Column.number("ratio"),
                Column.number("w/o alloc"),
                Column.text("CPU share"),
                Column.number("per CPU"),
                Column.text("result"),
                Column.number("hist"),
                Column.number("window"),
                Column.number("network"),
                Column.number("(compute/put/wait)"),
                Column.number("local"),
                Column.number("build-probe"),
                Column.number("imbalance"),
                Column.number("total s"),
                Column.number("model s"),
                Column.text("bound"));
        List<List<String>> cells = new ArrayList<>();
        for (JoinRow row : rows) {
            RadixJoinModel model = row.model();
            List<String> cellsOfRow = new ArrayList<>(List.of(
                    row.workload(),
                    row.scaling(),
                    Integer.toString(row.nodes()),
                    Integer.toString(row.threads()),
                    Integer.toString(row.buffers()),
                    cap(row.bandwidthCap()),
                    mega(row.measured().tuplesPerSecond()),
                    mega(row.reference().tuplesPerSecond()),
                    format("%.2f", row.ratio()),
                    format("%.2f", row.ratioWithoutWindows()),
                    format("%.2f", row.measured().cpuShare()) + "/"
                            + format("%.2f", row.reference().cpuShare()),
                    format("%.2f", row.ratioPerCpu()),
                    row.correct() ? "ok" : "MISMATCH"));
            cellsOfRow.addAll(phaseCells(row.measured()));
            cellsOfRow.add(format("%.3f", model.totalSeconds()));
            cellsOfRow.add(row.nodes() == 1 ? "-" : model.networkBound() ? "network" : "compute");
            cells.add(cellsOfRow);
        }
        return new ResultTable(columns, cells);
    }

    private static ResultTable overlapTable(List<JoinRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (JoinRow row : rows) {
            if (row.nodes() == 1) {
                continue;
            }
            double compute = row.computeSeconds();
            double transfer = row.transferSeconds();
            double measured = row.measured().mean().networkNanos() / 1e9;
            cells.add(List.of(
                    row.workload(),
                    Integer.toString(row.nodes()),
                    Integer.toString(row.threads()),
                    Integer.toString(row.buffers()),
                    cap(row.bandwidthCap()),
                    format("%.0f", row.measured().bandwidthBytesPerSecond() / 1e6),
                    format("%.3f", compute),
                    format("%.3f", transfer),
                    format("%.3f", Math.max(compute, transfer)),
                    format("%.3f", compute + transfer),
                    format("%.3f", measured),
                    row.model().networkBound() ? "network" : "compute"));
        }
        return new ResultTable(
                List.of(
                        Column.text("workload"),
                        Column.number("N"),
                        Column.number("T"),
                        Column.number("k"),
                        Column.text("cap"),
                        Column.number("bw MB/s"),
                        Column.number("compute s"),
                        Column.number("transfer s"),
                        Column.number("max s"),
                        Column.number("sum s"),
                        Column.number("measured s"),
                        Column.text("Eq. 3.3")),
                cells);
    }

    private static ResultTable sortMergeTable(List<SortMergeRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (SortMergeRow row : rows) {
            List<String> cellsOfRow = new ArrayList<>(List.of(
                    row.workload(),
                    Integer.toString(row.nodes()),
                    Integer.toString(row.threads()),
                    cap(row.bandwidthCap()),
                    mega(row.measured().tuplesPerSecond()),
                    mega(row.radix().measured().tuplesPerSecond()),
                    format("%.2f", row.slowdown()),
                    row.correct() ? "ok" : "MISMATCH"));
            cellsOfRow.addAll(phaseCells(row.measured()));
            cells.add(cellsOfRow);
        }
        return new ResultTable(
                List.of(
                        Column.text("workload"),
                        Column.number("N"),
                        Column.number("T"),
                        Column.text("cap"),
                        Column.number("SMJ M/s"),
                        Column.number("RHJ M/s"),
                        Column.number("SMJ/RHJ time"),
                        Column.text("result"),
                        Column.number("partition"),
                        Column.number("window"),
                        Column.number("sort"),
                        Column.number("(compute/put/wait)"),
                        Column.number("merge"),
                        Column.number("match"),
                        Column.number("imbalance"),
                        Column.number("total s")),
                cells);
    }

    /** The phase columns of a point: six phases, the network pass's split, imbalance and total, in seconds. */
    private static List<String> phaseCells(JoinPoint point) {
        PhaseTimes t = point.mean();
        return List.of(
                seconds(t.histogramNanos()),
                seconds(t.windowNanos()),
                seconds(t.networkNanos()),
                seconds(t.networkComputeNanos()) + "/" + seconds(t.networkPutNanos()) + "/"
                        + seconds(t.networkWaitNanos()),
                seconds(t.localPartitionNanos()),
                seconds(t.buildProbeNanos()),
                seconds(point.imbalanceNanos()),
                seconds(t.totalNanos()));
    }

    static String cap(long bytesPerSecond) {
        return bytesPerSecond == 0 ? "-" : format("%.0fMiB/s", bytesPerSecond / 1048576.0);
    }

    private static ResultTable ratesTable(List<JoinRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (JoinRow row : rows) {
            if (seen.contains(row.workload())) {
                continue;
            }
            seen.add(row.workload());
            PhaseTimes t = row.rates().mean();
            cells.add(rateRow(
                    row.workload(),
                    "scan (histogram)",
                    JoinRow.rate(row.rates(), t.histogramNanos()),
                    row.rates().cpuShare(),
                    "225",
                    PAPER_SCAN));
            cells.add(rateRow(
                    row.workload(),
                    "partition (network fan-out)",
                    JoinRow.rate(row.rates(), t.networkNanos()),
                    row.rates().cpuShare(),
                    PAPER_PARTITION,
                    PAPER_PARTITION_LOW));
            if (row.rates().passes() > 1) {
                cells.add(rateRow(
                        row.workload(),
                        "partition (local pass)",
                        JoinRow.rate(row.rates(), t.localPartitionNanos()),
                        row.rates().cpuShare(),
                        PAPER_PARTITION,
                        PAPER_PARTITION_LOW));
            }
            cells.add(rateRow(
                    row.workload(),
                    "build-probe",
                    JoinRow.rate(row.rates(), t.buildProbeNanos()),
                    row.rates().cpuShare(),
                    "210",
                    PAPER_BUILD_PROBE));
        }
        return new ResultTable(
                List.of(
                        Column.text("workload"),
                        Column.text("phase"),
                        Column.number("ours"),
                        Column.number("CPU share"),
                        Column.number("per CPU-s"),
                        Column.number("paper"),
                        Column.number("paper/ours"),
                        Column.text("")),
                cells);
    }

    static List<String> rateRow(
            String workload, String phase, double rate, double cpuShare, String paper, double paperLow) {
        double factor = paperLow / (rate / 1e6);
        return List.of(
                workload,
                phase,
                mega(rate),
                Double.isNaN(cpuShare) ? "-" : format("%.2f", cpuShare),
                Double.isNaN(cpuShare) ? "-" : mega(rate / cpuShare),
                paper,
                format("%.1f", factor),
                factor > 10 ? "> 10x below" : "");
    }

    /**
     * The radix join's Table 4.2 rows: the histogram (its scans, the global histogram's collectives, the assignment
     * and the offsets, as the thesis's phase (i); Eq. 3.1 models the scans alone, as the thesis's model does, and
     * the scans' own wall time is the row below it), the window allocation, the network pass, the local pass,
     * build-probe, the imbalance and the total.
     */
    static List<ModelTable.Phase> modelPhases(JoinRow row) {
        RadixJoinModel model = row.model();
        RadixJoinModel cpu = row.cpuModel();
        return ModelTable.of(
                new String[] {
                    "histogram (scan + exchange)",
                    "  of which the scans",
                    "window allocation",
                    "network partitioning",
                    "local partitioning",
                    "build-probe",
                    "imbalance",
                    "total"
                },
                row.measured(),
                new double[] {
                    model.histogramSeconds(),
                    model.networkPassSeconds(),
                    model.localPassSeconds(),
                    model.buildProbeSeconds(),
                    model.totalSeconds()
                },
                new double[] {
                    cpu.histogramSeconds(), cpu.networkPassSeconds(), cpu.localPassSeconds(), cpu.buildProbeSeconds()
                },
                new boolean[] {true, true, model.passes() > 1, true},
                PAPER_TABLE_4_2);
    }

    private static String skewTable(List<JoinRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (JoinRow row : rows) {
            String twin = JoinWorkloads.uniformTwin(row.workload());
            if (twin == null) {
                continue;
            }
            for (JoinRow other : rows) {
                if (other.workload().equals(twin)
                        && other.scaling().equals(row.scaling())
                        && other.nodes() == row.nodes()
                        && other.threads() == row.threads()
                        && other.buffers() == row.buffers()) {
                    String paper = row.nodes() == 4
                            ? (row.workload().equals("zipf1.05") ? "1.20" : "2.03")
                            : row.nodes() == 8 ? (row.workload().equals("zipf1.05") ? "1.77" : "3.29") : "-";
                    cells.add(List.of(
                            row.workload(),
                            Integer.toString(row.nodes()),
                            Integer.toString(row.threads()),
                            format(
                                    "%.2f",
                                    row.measured().seconds() / other.measured().seconds()),
                            paper));
                }
            }
        }
        if (cells.isEmpty()) {
            return "";
        }
        return new ResultTable(
                        List.of(
                                Column.text("workload"),
                                Column.number("N"),
                                Column.number("T"),
                                Column.number("slowdown"),
                                Column.number("paper")),
                        cells)
                .format();
    }

    static String mega(double perSecond) {
        return format("%.1f", perSecond / 1e6);
    }

    static String seconds(long nanos) {
        return format("%.3f", nanos / 1e9);
    }

    static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
