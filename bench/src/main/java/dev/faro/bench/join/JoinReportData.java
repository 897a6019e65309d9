package dev.faro.bench.join;

import dev.faro.bench.report.PlotWriter;
import dev.faro.join.model.RadixJoinModel;
import dev.faro.join.radix.PhaseTimes;
import java.util.ArrayList;
import java.util.List;

/** The machine-readable side of {@code faro bench join}'s report: the CSV's columns and rows, the plots' lines. */
final class JoinReportData {

    private JoinReportData() {}

    static List<String> csvHeader() {
        return List.of(
                "workload",
                "scaling",
                "nodes",
                "threads",
                "buffers",
                "bandwidth_cap_bytes_per_s",
                "tuples",
                "seconds",
                "tuples_per_second",
                "reference_tuples_per_second",
                "ratio",
                "ratio_without_window_allocation",
                "correct",
                "histogram_s",
                "window_s",
                "network_s",
                "network_compute_s",
                "network_put_s",
                "network_wait_s",
                "local_partition_s",
                "build_probe_s",
                "imbalance_s",
                "bytes_put",
                "bandwidth_bytes_per_s",
                "model_histogram_s",
                "model_network_s",
                "model_local_s",
                "model_build_probe_s",
                "model_total_s",
                "network_bound");
    }

    static List<List<String>> csvRows(List<JoinRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (JoinRow row : rows) {
            PhaseTimes t = row.measured().mean();
            RadixJoinModel m = row.model();
            cells.add(List.of(
                    row.workload(),
                    row.scaling(),
                    Integer.toString(row.nodes()),
                    Integer.toString(row.threads()),
                    Integer.toString(row.buffers()),
                    Long.toString(row.bandwidthCap()),
                    Long.toString(row.measured().tuples()),
                    JoinBenchReport.format("%.6f", row.measured().seconds()),
                    JoinBenchReport.format("%.0f", row.measured().tuplesPerSecond()),
                    JoinBenchReport.format("%.0f", row.reference().tuplesPerSecond()),
                    JoinBenchReport.format("%.4f", row.ratio()),
                    JoinBenchReport.format("%.4f", row.ratioWithoutWindows()),
                    Boolean.toString(row.correct()),
                    JoinBenchReport.seconds(t.histogramNanos()),
                    JoinBenchReport.seconds(t.windowNanos()),
                    JoinBenchReport.seconds(t.networkNanos()),
                    JoinBenchReport.seconds(t.networkComputeNanos()),
                    JoinBenchReport.seconds(t.networkPutNanos()),
                    JoinBenchReport.seconds(t.networkWaitNanos()),
                    JoinBenchReport.seconds(t.localPartitionNanos()),
                    JoinBenchReport.seconds(t.buildProbeNanos()),
                    JoinBenchReport.seconds(row.measured().imbalanceNanos()),
                    Long.toString(t.bytesPut()),
                    JoinBenchReport.format("%.0f", row.measured().bandwidthBytesPerSecond()),
                    JoinBenchReport.format("%.6f", m.histogramSeconds()),
                    JoinBenchReport.format("%.6f", m.networkPassSeconds()),
                    JoinBenchReport.format("%.6f", m.localPassSeconds()),
                    JoinBenchReport.format("%.6f", m.buildProbeSeconds()),
                    JoinBenchReport.format("%.6f", m.totalSeconds()),
                    Boolean.toString(m.networkBound())));
        }
        return cells;
    }

    static List<PlotWriter.Line> lines(List<JoinRow> rows, JoinBenchConfig config) {
        List<PlotWriter.Line> lines = new ArrayList<>();
        String workload = rows.getFirst().workload();
        int k = config.bufferCounts().getLast();
        for (String scaling : config.scalings()) {
            for (int threads : config.threadCounts()) {
                List<Double> x = new ArrayList<>();
                List<Double> rhj = new ArrayList<>();
                List<Double> reference = new ArrayList<>();
                List<Double> model = new ArrayList<>();
                for (JoinRow row : rows) {
                    if (row.workload().equals(workload)
                            && row.scaling().equals(scaling)
                            && row.threads() == threads
                            && row.buffers() == k
                            && row.bandwidthCap() == config.bandwidthCaps().getFirst()) {
                        x.add((double) row.nodes());
                        rhj.add(row.measured().tuplesPerSecond() / 1e6);
                        reference.add(row.reference().tuplesPerSecond() / 1e6);
                        model.add(row.measured().tuples() / row.model().totalSeconds() / 1e6);
                    }
                }
                String label = (config.scalings().size() > 1 ? scaling + ", " : "") + threads;
                lines.add(new PlotWriter.Line("RHJ, " + label + " thread(s)/node, k=" + k, x, rhj, false));
                lines.add(new PlotWriter.Line("1 process, same cores (" + label + "/node)", x, reference, true));
                lines.add(new PlotWriter.Line("model (Eq. 3.11), " + label + "/node", x, model, true));
            }
        }
        return lines;
    }

    static List<PlotWriter.Line> crossoverLines(List<JoinRow> rows, JoinBenchConfig config) {
        List<PlotWriter.Line> lines = new ArrayList<>();
        String workload = rows.getFirst().workload();
        int k = config.bufferCounts().getLast();
        for (int nodes : config.nodeCounts()) {
            for (int threads : config.threadCounts()) {
                List<Double> x = new ArrayList<>();
                List<Double> measured = new ArrayList<>();
                List<Double> model = new ArrayList<>();
                for (JoinRow row : rows) {
                    if (row.workload().equals(workload)
                            && row.scaling().equals(config.scalings().getFirst())
                            && row.nodes() == nodes
                            && row.threads() == threads
                            && row.buffers() == k
                            && row.bandwidthCap() > 0) {
                        x.add(row.bandwidthCap() / 1048576.0);
                        measured.add(row.measured().tuplesPerSecond() / 1e6);
                        model.add(row.measured().tuples() / row.model().totalSeconds() / 1e6);
                    }
                }
                String name = nodes + " nodes x " + threads;
                lines.add(new PlotWriter.Line("RHJ " + name, x, measured, false));
                lines.add(new PlotWriter.Line("model " + name, x, model, true));
            }
        }
        return lines;
    }
}
