package dev.faro.bench.join;

import static dev.faro.bench.join.JoinBenchReport.format;
import static dev.faro.bench.join.JoinBenchReport.mega;

import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import java.util.ArrayList;
import java.util.List;

/**
 * The strong-scaling summary of {@code faro bench join}: for every strong-scaling radix join row, its time against
 * the row with the fewest nodes of the same workload, threads per node, k and cap (the same total input), as a
 * speed-up and an efficiency (speed-up over the node ratio), with the model's and the single-process join's
 * speed-ups beside it.
 */
final class ScalingTable {

    private ScalingTable() {}

    /** The table, or the empty string when no strong-scaling row ran. */
    static String text(List<JoinRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (JoinRow row : rows) {
            if (!row.scaling().equals("strong")) {
                continue;
            }
            JoinRow base = null;
            for (JoinRow other : rows) {
                if (other.scaling().equals("strong")
                        && other.workload().equals(row.workload())
                        && other.threads() == row.threads()
                        && other.buffers() == row.buffers()
                        && other.bandwidthCap() == row.bandwidthCap()
                        && (base == null || other.nodes() < base.nodes())) {
                    base = other;
                }
            }
            double speedUp = base.measured().seconds() / row.measured().seconds();
            cells.add(List.of(
                    row.workload(),
                    Integer.toString(row.nodes()),
                    Integer.toString(row.threads()),
                    Integer.toString(row.buffers()),
                    JoinBenchReport.cap(row.bandwidthCap()),
                    Long.toString(row.measured().tuples()),
                    format("%.3f", row.measured().seconds()),
                    mega(row.measured().tuplesPerSecond()),
                    format("%.2f", speedUp),
                    format("%.2f", speedUp * base.nodes() / row.nodes()),
                    format("%.2f", base.model().totalSeconds() / row.model().totalSeconds()),
                    format("%.2f", base.reference().seconds() / row.reference().seconds())));
        }
        if (cells.isEmpty()) {
            return "";
        }
        return new ResultTable(
                        List.of(
                                Column.text("workload"),
                                Column.number("N"),
                                Column.number("T"),
                                Column.number("k"),
                                Column.text("cap"),
                                Column.number("|R|+|S|"),
                                Column.number("time s"),
                                Column.number("M tuples/s"),
                                Column.number("speed-up"),
                                Column.number("efficiency"),
                                Column.number("model speed-up"),
                                Column.number("1-proc speed-up")),
                        cells)
                .format();
    }
}
