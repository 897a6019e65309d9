package dev.faro.bench.join;

import static dev.faro.bench.join.JoinBenchReport.format;

import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.join.radix.PhaseTimes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A Table 4.2-style table of {@code faro bench join}: for every phase the measured time against the model's, twice.
 *
 * <ul>
 *   <li><b>wall</b>, the thesis's convention: the phase's wall time (mean over nodes, the median run) against the
 *       model fed by the peak per-thread wall rates of micro-benchmarks run at the same concurrency (N x T threads
 *       at once). On a host with fewer cores than N x T threads, or a loaded one, both depend on how the threads
 *       happen to share the cores while the phase runs.
 *   <li><b>CPU</b>: the mean per-thread CPU time of the phase's worker threads (the median over the runs) against
 *       the model fed by the peak
 *       per-thread rates per CPU second (no network term: waiting costs no CPU), which load does not inflate.
 * </ul>
 *
 * A modelled compute phase gets a verdict on each: {@code met} when the measured time is at most {@link #GOAL} above
 * the model and not below it (the model a lower bound, as the thesis's is meant to be), else how it misses.
 *
 * <p>Coordination code.
 */
final class ModelTable {

    /** The goal: the model within 25 % of the measured time (measured at most 1.25 x model). */
    static final double GOAL = 0.25;

    /**
     * One row.
     *
     * @param name the phase
     * @param measuredWall seconds
     * @param modelWall seconds, NaN when not modelled
     * @param measuredCpu CPU seconds per thread, NaN when not measured
     * @param modelCpu CPU seconds per thread, NaN when not modelled
     * @param judged whether the row gets a verdict (a modelled phase, not a part of one)
     * @param paper the thesis's measured and model seconds (NaN where it has none)
     */
    record Phase(
            String name,
            double measuredWall,
            double modelWall,
            double measuredCpu,
            double modelCpu,
            boolean judged,
            double[] paper) {}

    private ModelTable() {}

    /**
     * The rows of a point whose phases sit in {@link PhaseTimes}' slots (the sort-merge join's too, see
     * {@link SortMergeRow}): {@code names} of the eight rows (the first phase, the part of it the model covers, window
     * allocation, the three further phases, imbalance, total; a row of the network pass's time in the fabric follows
     * it); {@code wallModel} the model's first phase, its three
     * further phases and total in seconds; {@code cpuModel} the model's four phases in CPU seconds per thread;
     * {@code judged} whether each of the four phases gets a verdict; {@code paper} the thesis's seven rows. The
     * network pass's CPU time (the sort-merge join's sorting, in the same slot, likewise) is its compute, without its
     * time inside the fabric (on {@code shm} the
     * put's copy, which an RDMA NIC does without the CPU; the model's compute-bound pass has no such term). Wall
     * times are the median run's ({@link JoinPoint#mean}), CPU times each phase's median over the runs
     * ({@link JoinPoint#medians}).
     */
    static List<Phase> of(
            String[] names,
            JoinPoint point,
            double[] wallModel,
            double[] cpuModel,
            boolean[] judged,
            double[][] paper) {
        PhaseTimes t = point.mean();
        PhaseTimes cpu = point.medians();
        double none = Double.NaN;
        return List.of(
                new Phase(
                        names[0],
                        t.histogramNanos() / 1e9,
                        wallModel[0],
                        cpu.histogramCpuNanos() / 1e9,
                        cpuModel[0],
                        judged[0],
                        paper[0]),
                new Phase(names[1], t.histogramScanNanos() / 1e9, wallModel[0], none, none, false, new double[] {
                    none, none
                }),
                new Phase(names[2], t.windowNanos() / 1e9, none, none, none, false, paper[1]),
                new Phase(
                        names[3],
                        t.networkNanos() / 1e9,
                        wallModel[1],
                        (cpu.networkCpuNanos() - cpu.networkFabricCpuNanos()) / 1e9,
                        cpuModel[1],
                        judged[1],
                        paper[2]),
                // the pass's time in the fabric, put and wait (mean per thread), and its CPU time there: on shm the
                // put is the copy on the sending thread, which the model's compute-bound pass (an RDMA NIC copies
                // while the thread computes) has no term for; not judged, shown so that the pass's excess over the
                // model reads as fabric time where it is one
                new Phase(
                        "  of which in the fabric (put + wait)",
                        (t.networkPutNanos() + t.networkWaitNanos()) / 1e9,
                        none,
                        cpu.networkFabricCpuNanos() / 1e9,
                        none,
                        false,
                        new double[] {none, none}),
                new Phase(
                        names[4],
                        t.localPartitionNanos() / 1e9,
                        wallModel[2],
                        cpu.localPartitionCpuNanos() / 1e9,
                        cpuModel[2],
                        judged[2],
                        paper[3]),
                new Phase(
                        names[5],
                        t.buildProbeNanos() / 1e9,
                        wallModel[3],
                        cpu.buildProbeCpuNanos() / 1e9,
                        cpuModel[3],
                        judged[3],
                        paper[4]),
                new Phase(names[6], point.imbalanceNanos() / 1e9, none, none, none, false, paper[5]),
                new Phase(names[7], t.totalNanos() / 1e9, wallModel[4], none, none, false, paper[6]));
    }

    /**
     * The table of the last point ({@code phases}), the goal's summary line, and one line per point ({@code points}
     * named, {@code all} their rows).
     */
    static String text(List<Phase> phases, List<String> points, List<List<Phase>> all) {
        return table(phases).format()
                + summary(phases)
                + "every point: CPU/thread against the model, wall against the model in brackets (* the CPU time"
                + " misses the goal)\n"
                + pointsTable(points, all).format();
    }

    static ResultTable table(List<Phase> phases) {
        List<List<String>> cells = new ArrayList<>();
        for (Phase phase : phases) {
            cells.add(List.of(
                    phase.name(),
                    seconds(phase.measuredWall()),
                    seconds(phase.modelWall()),
                    difference(phase.measuredWall(), phase.modelWall()),
                    phase.judged() ? verdict(phase.measuredWall(), phase.modelWall()) : "",
                    seconds(phase.measuredCpu()),
                    seconds(phase.modelCpu()),
                    difference(phase.measuredCpu(), phase.modelCpu()),
                    phase.judged() ? verdict(phase.measuredCpu(), phase.modelCpu()) : "",
                    seconds(phase.paper()[0]),
                    seconds(phase.paper()[1])));
        }
        return new ResultTable(
                List.of(
                        Column.text("phase"),
                        Column.number("wall"),
                        Column.number("model"),
                        Column.number("diff"),
                        Column.text("wall verdict"),
                        Column.number("CPU/thread"),
                        Column.number("model"),
                        Column.number("diff"),
                        Column.text("CPU verdict"),
                        Column.number("paper measured"),
                        Column.number("paper model")),
                cells);
    }

    /**
     * One line per point (named by {@code points}): each judged phase's measured CPU time against the model, and in
     * brackets its wall time against the model, with a {@code *} where the CPU time misses the goal.
     */
    static ResultTable pointsTable(List<String> points, List<List<Phase>> phases) {
        // the columns are every phase judged at some point (a point judges local partitioning only when it runs more
        // than one pass, which depends on its node count), in the order of the point judging the most
        List<String> names = new ArrayList<>();
        List<List<Phase>> mostFirst = new ArrayList<>(phases);
        mostFirst.sort(Comparator.comparingLong((List<Phase> point) ->
                        point.stream().filter(Phase::judged).count())
                .reversed());
        for (List<Phase> point : mostFirst) {
            for (Phase phase : point) {
                if (phase.judged() && !names.contains(phase.name())) {
                    names.add(phase.name());
                }
            }
        }
        List<Column> columns = new ArrayList<>();
        columns.add(Column.text("point"));
        for (String name : names) {
            columns.add(Column.text(name));
        }
        List<List<String>> cells = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            List<String> row = new ArrayList<>();
            row.add(points.get(i));
            for (String name : names) {
                row.add(phases.get(i).stream()
                        .filter(phase -> phase.judged() && phase.name().equals(name))
                        .findFirst()
                        .map(phase -> difference(phase.measuredCpu(), phase.modelCpu())
                                + (met(phase.measuredCpu(), phase.modelCpu()) ? "" : "*")
                                + " (" + difference(phase.measuredWall(), phase.modelWall()) + ")")
                        .orElse("-"));
            }
            cells.add(row);
        }
        return new ResultTable(columns, cells);
    }

    /** One line: how many judged phases meet the goal on wall and on CPU time, and which miss. */
    static String summary(List<Phase> phases) {
        int judged = 0;
        int wall = 0;
        int cpu = 0;
        List<String> misses = new ArrayList<>();
        for (Phase phase : phases) {
            if (!phase.judged()) {
                continue;
            }
            judged++;
            boolean wallMet = met(phase.measuredWall(), phase.modelWall());
            boolean cpuMet = met(phase.measuredCpu(), phase.modelCpu());
            wall += wallMet ? 1 : 0;
            cpu += cpuMet ? 1 : 0;
            if (!cpuMet) {
                misses.add(phase.name() + " (CPU " + difference(phase.measuredCpu(), phase.modelCpu()) + ")");
            }
        }
        return String.format(
                java.util.Locale.ROOT,
                "goal (model within %.0f %% of measured and a lower bound): wall %d of %d phases, CPU %d of %d%s%n",
                100 * GOAL,
                wall,
                judged,
                cpu,
                judged,
                misses.isEmpty() ? "" : "; missed on CPU: " + String.join(", ", misses));
    }

    /** Whether {@code measured} is at least {@code model} and at most {@link #GOAL} above it. */
    static boolean met(double measured, double model) {
        if (!(model > 0) || Double.isNaN(measured)) {
            return false;
        }
        double over = measured / model - 1;
        return over >= 0 && over <= GOAL;
    }

    static String verdict(double measured, double model) {
        if (!(model > 0) || Double.isNaN(measured)) {
            return "-";
        }
        return met(measured, model) ? "met" : measured < model ? "below model" : format("over %.0f %%", 100 * GOAL);
    }

    private static String difference(double measured, double model) {
        return !(model > 0) || Double.isNaN(measured) ? "-" : format("%+.0f%%", 100 * (measured / model - 1));
    }

    private static String seconds(double value) {
        return Double.isNaN(value) ? "-" : format("%.3f", value);
    }
}
