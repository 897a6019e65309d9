package dev.faro.bench.locks;

import static dev.faro.bench.locks.LocksFormat.fixed;

import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.txn.node.AgentStatistics;
import dev.faro.txn.node.ModelCalibration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Fig. 5.6's analogue: one point's lock latency split into communication, waiting group and server processing, with the
 * 2PC vote, the clean-up, the fabric's round trip and the model's micro-benchmarks of the same run, the thesis's
 * figures and goals beside ours.
 */
final class BreakdownTable {

    private BreakdownTable() {}

    static ResultTable breakdownTable(LocksResult result) {
        AgentStatistics s = result.statistics();
        List<List<String>> rows = new ArrayList<>();
        double paperCommunication =
                ThesisNumbers.LOCK_MICROS - ThesisNumbers.QUEUE_MICROS - ThesisNumbers.PROCESSING_MICROS;
        rows.add(row("fabric round trip, local (mailbox ping, median)", result.pingLocalMicros(), Double.NaN));
        rows.add(row(
                "fabric round trip, remote (mailbox ping, median)",
                result.pingRemoteMicros(),
                ThesisNumbers.NETWORK_ROUND_TRIP_MICROS));
        rows.add(row("lock acquire, all", s.meanLockMicros(), ThesisNumbers.LOCK_MICROS));
        rows.add(row("lock acquire, local", s.meanLocalLockMicros(), Double.NaN));
        rows.add(row("lock acquire, remote", s.meanRemoteLockMicros(), Double.NaN));
        rows.add(row("lock acquire, local median", result.localLockMedianMicros(), Double.NaN));
        rows.add(row("lock acquire, local 99th percentile", result.localLockP99Micros(), Double.NaN));
        rows.add(row("lock acquire, remote median", result.remoteLockMedianMicros(), Double.NaN));
        rows.add(row("lock acquire, remote 99th percentile", result.remoteLockP99Micros(), Double.NaN));
        rows.add(row("  communication", s.meanCommunicationMicros(), paperCommunication));
        rows.add(row("  waiting group (queue)", s.meanQueueMicros(), ThesisNumbers.QUEUE_MICROS));
        rows.add(row("  server processing", s.meanProcessingMicros(), ThesisNumbers.PROCESSING_MICROS));
        rows.add(row("2PC vote", s.meanVoteMicros(), ThesisNumbers.VOTE_MICROS));
        rows.add(row("clean-up (end of transaction)", s.meanCleanUpMicros(), Double.NaN));
        rows.add(row("transaction", s.meanTransactionMicros(), Double.NaN));
        ModelCalibration calibration = result.calibration();
        if (calibration != null) {
            rows.add(row("micro-benchmark: local lock (mean)", calibration.localLockMicros(), Double.NaN));
            rows.add(row("micro-benchmark: remote lock (mean)", calibration.remoteLockMicros(), Double.NaN));
            rows.add(row(
                    "micro-benchmark: 2PC vote, 2 participants (mean)",
                    calibration.voteMicros(),
                    ThesisNumbers.VOTE_MICROS));
            rows.add(row("micro-benchmark: clean-up, all local (mean)", calibration.cleanUpMicros(), Double.NaN));
        }
        if (calibration != null && Double.isFinite(calibration.localLockMedianMicros())) {
            rows.add(List.of(
                    "micro-benchmark local lock / local round trip (medians)",
                    fixed(calibration.localLockMedianMicros() / result.pingLocalMicros(), 2),
                    fixed(ThesisNumbers.LOCK_MICROS / ThesisNumbers.NETWORK_ROUND_TRIP_MICROS, 2),
                    "goal <= 3"));
            rows.add(List.of(
                    "micro-benchmark remote lock / remote round trip (medians)",
                    fixed(calibration.remoteLockMedianMicros() / result.pingRemoteMicros(), 2),
                    fixed(ThesisNumbers.LOCK_MICROS / ThesisNumbers.NETWORK_ROUND_TRIP_MICROS, 2),
                    "goal <= 3"));
        }
        rows.add(List.of(
                "local lock / local round trip (medians)",
                fixed(result.localLockMedianMicros() / result.pingLocalMicros(), 2),
                fixed(ThesisNumbers.LOCK_MICROS / ThesisNumbers.NETWORK_ROUND_TRIP_MICROS, 2),
                "goal <= 3"));
        rows.add(List.of(
                "remote lock / remote round trip (medians)",
                fixed(result.remoteLockMedianMicros() / result.pingRemoteMicros(), 2),
                fixed(ThesisNumbers.LOCK_MICROS / ThesisNumbers.NETWORK_ROUND_TRIP_MICROS, 2),
                "goal <= 3"));
        rows.add(List.of(
                "server processing per request (server clock)",
                fixed(result.serverProcessingMicros(), 3),
                fixed(ThesisNumbers.PROCESSING_MICROS, 2),
                "goal << 1 us"));
        return new ResultTable(
                List.of(Column.text("phase"), Column.number("ours us"), Column.number("paper us"), Column.text("")),
                rows);
    }

    private static List<String> row(String phase, double ours, double paper) {
        return List.of(phase, fixed(ours, 2), fixed(paper, 2), "");
    }

    static LocksResult breakdownSource(Map<String, List<LocksResult>> results) {
        if (results.containsKey("isolation")) {
            return results.get("isolation").getFirst();
        }
        if (results.containsKey("remote")) {
            return results.get("remote").getLast();
        }
        List<LocksResult> any = results.values().iterator().next();
        return any.getLast();
    }
}
