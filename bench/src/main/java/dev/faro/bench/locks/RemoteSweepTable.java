package dev.faro.bench.locks;

import static dev.faro.bench.locks.LocksFormat.fixed;
import static dev.faro.bench.locks.LocksFormat.rate;

import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.txn.model.TransactionModel;
import dev.faro.txn.node.AgentStatistics;
import dev.faro.txn.node.ModelCalibration;
import dev.faro.txn.workload.SyntheticWorkload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Table 5.1's analogue: the synthetic workload against the remote-lock probability, measured beside the model of
 * Eqs. 5.1–5.4 fed by the micro-benchmarks of the same run ({@link ModelCalibration}), with the thesis's figures beside
 * ours, and the plot of both normalised to 0 % remote.
 */
final class RemoteSweepTable {

    private RemoteSweepTable() {}

    /**
     * The model of the sweep: fed by the micro-benchmarks of its runs ({@link ModelCalibration}, the medians over the
     * points of each input) with the workload's queue time (the median over the points), or, when the results carry no
     * micro-benchmarks, {@link #fit}.
     */
    static TransactionModel model(List<LocksResult> sweep) {
        if (sweep.stream().anyMatch(result -> result.calibration() == null)) {
            return fit(sweep);
        }
        ModelCalibration calibration = new ModelCalibration(
                median(sweep, result -> result.calibration().localLockMicros()),
                median(sweep, result -> result.calibration().remoteLockMicros()),
                median(sweep, result -> result.calibration().voteMicros()),
                median(sweep, result -> result.calibration().cleanUpMicros()));
        return calibration.model(median(sweep, result -> result.statistics().meanQueueMicros()));
    }

    private static double median(List<LocksResult> sweep, ToDoubleFunction<LocksResult> value) {
        double[] values = sweep.stream().mapToDouble(value).sorted().toArray();
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    /**
     * The model fitted from the sweep itself (for results without micro-benchmarks, and beside the micro-benchmarks' terms
     * as the "sweep's own" row): local message and queue time and clean-up from the run with the fewest remote locks,
     * remote message and vote from the run with the most.
     */
    static TransactionModel fit(List<LocksResult> sweep) {
        LocksResult low = sweep.getFirst();
        LocksResult high = sweep.getLast();
        for (LocksResult result : sweep) {
            if (result.lockCase().remotePercent() < low.lockCase().remotePercent()) {
                low = result;
            }
            if (result.lockCase().remotePercent() > high.lockCase().remotePercent()) {
                high = result;
            }
        }
        AgentStatistics lowStats = low.statistics();
        AgentStatistics highStats = high.statistics();
        double queue = lowStats.meanQueueMicros();
        double local = Math.max(0, (lowStats.meanLocalLockMicros() - queue) / 2);
        double remote = highStats.remoteLocks == 0
                ? local
                : Math.max(0, (highStats.meanRemoteLockMicros() - highStats.meanQueueMicros()) / 2);
        return new TransactionModel(local, remote, queue, highStats.meanVoteMicros(), lowStats.meanCleanUpMicros());
    }

    private static List<String> termsRow(String name, TransactionModel terms) {
        return List.of(
                name,
                "t_local " + fixed(terms.localCommMicros(), 2),
                "t_remote " + fixed(terms.remoteCommMicros(), 2),
                "t_queue " + fixed(terms.queueMicros(), 2),
                "t_vote " + fixed(terms.voteMicros(), 1),
                "t_clean " + fixed(terms.cleanUpMicros(), 1),
                "(us)",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "");
    }

    static ResultTable remoteTable(List<LocksResult> sweep) {
        TransactionModel model = model(sweep);
        double baseline = sweep.getFirst().transactionsPerSecond();
        double paperBaseline = ThesisNumbers.MEASURED_2520.getFirst();
        List<List<String>> rows = new ArrayList<>();
        for (LocksResult result : sweep) {
            double percent = result.lockCase().remotePercent();
            int locks = result.lockCase().locksPerTransaction();
            double votes = SyntheticWorkload.voteProbability(percent / 100, locks);
            double predicted = model.transactionMicros(locks, percent / 100, votes);
            double predictedRate =
                    model.throughputPerSecond(result.concurrentTransactions(), locks, percent / 100, votes);
            double printedRate = model.throughputPerSecond(result.concurrentTransactions(), locks, percent / 100);
            double measuredMicros = result.concurrentTransactions() / result.transactionsPerSecond() * 1e6;
            double paperMeasured = ThesisNumbers.at(ThesisNumbers.MEASURED_2520, percent);
            double paperPredicted = ThesisNumbers.at(ThesisNumbers.PREDICTED_2520, percent);
            AgentStatistics s = result.statistics();
            rows.add(List.of(
                    LocksCase.format(percent),
                    rate(result.transactionsPerSecond()),
                    rate(result.lockRequestsPerSecond()),
                    fixed(measuredMicros, 1),
                    fixed(predicted, 1),
                    rate(predictedRate),
                    fixed(predictedRate / result.transactionsPerSecond(), 2),
                    fixed(printedRate / result.transactionsPerSecond(), 2),
                    fixed(s.transactions() == 0 ? 0 : 100.0 * s.votes / s.transactions(), 1),
                    fixed(100 * votes, 1),
                    fixed(result.transactionsPerSecond() / baseline, 2),
                    fixed(ThesisNumbers.at(ThesisNumbers.PREDICTED_MICROS, percent), 1),
                    fixed(paperMeasured, 2),
                    fixed(paperMeasured / paperBaseline, 2),
                    fixed(paperPredicted / paperMeasured, 2),
                    fixed(result.abortPercent(), 2)));
        }
        rows.add(termsRow("model", model));
        if (sweep.stream().allMatch(result -> result.calibration() != null)) {
            // the same terms as the sweep's own agents saw them: which micro-benchmark misses the load it predicts
            rows.add(termsRow("sweep's own", fit(sweep)));
        }
        return new ResultTable(
                List.of(
                        Column.text("remote %"),
                        Column.number("tx/s"),
                        Column.number("lock req/s"),
                        Column.number("t_tx us"),
                        Column.number("model t_tx us"),
                        Column.number("model tx/s"),
                        Column.number("model/meas."),
                        Column.number("Eq.5.2 votes: model/meas."),
                        Column.number("votes %"),
                        Column.number("model votes %"),
                        Column.number("tx/s vs 0%"),
                        Column.number("paper model t_tx us"),
                        Column.number("paper M tx/s"),
                        Column.number("paper vs 0%"),
                        Column.number("paper model/meas."),
                        Column.number("abort %")),
                rows);
    }

    static void writeRemotePlot(Path file, List<LocksResult> sweep) {
        TransactionModel model = model(sweep);
        double base = sweep.getFirst().transactionsPerSecond();
        int concurrent = sweep.getFirst().concurrentTransactions();
        int locks = sweep.getFirst().lockCase().locksPerTransaction();
        double modelBase = model.throughputPerSecond(concurrent, locks, 0, 0);
        List<Double> x = new ArrayList<>();
        List<Double> measured = new ArrayList<>();
        List<Double> predicted = new ArrayList<>();
        List<Double> paper = new ArrayList<>();
        List<Double> paperModel = new ArrayList<>();
        for (LocksResult result : sweep) {
            double percent = result.lockCase().remotePercent();
            x.add(percent);
            measured.add(result.transactionsPerSecond() / base);
            predicted.add(model.throughputPerSecond(
                            concurrent, locks, percent / 100, SyntheticWorkload.voteProbability(percent / 100, locks))
                    / modelBase);
            paper.add(ThesisNumbers.at(ThesisNumbers.MEASURED_2520, percent) / ThesisNumbers.MEASURED_2520.getFirst());
            paperModel.add(
                    ThesisNumbers.at(ThesisNumbers.PREDICTED_2520, percent) / ThesisNumbers.PREDICTED_2520.getFirst());
        }
        PlotWriter.writeLines(
                file,
                "Throughput against remote locks (normalised to 0 %)",
                "remote lock probability (%)",
                false,
                "tx/s relative to 0 % remote",
                List.of(
                        new PlotWriter.Line("Faro measured", x, measured, false),
                        new PlotWriter.Line("Faro model (Eq. 5.3/5.4)", x, predicted, true),
                        new PlotWriter.Line("thesis measured (Table 5.1)", x, paper, false),
                        new PlotWriter.Line("thesis model (Table 5.1)", x, paperModel, true)));
    }
}
