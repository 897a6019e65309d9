package dev.faro.bench.locks;

import static dev.faro.bench.locks.LocksFormat.fixed;
import static dev.faro.bench.locks.LocksFormat.rate;

import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.txn.node.AgentStatistics;
import dev.faro.txn.workload.LockLevelStatistics;
import dev.faro.txn.workload.WorkloadRunner;
import java.util.ArrayList;
import java.util.List;

/**
 * §5.4.2's comparison: TPC-C serializable against read committed (throughput, lock requests, per-lock latency, beside
 * the thesis's figures), and the split of each level's lock requests by lock level (where the lock time goes).
 */
final class IsolationTables {

    private IsolationTables() {}

    static ResultTable isolationTable(List<LocksResult> results) {
        List<List<String>> rows = new ArrayList<>();
        for (LocksResult result : results) {
            boolean serializable = result.lockCase().isolationName().equals("serializable");
            rows.add(List.of(
                    result.lockCase().isolationName(),
                    fixed(result.locksPerTransaction(), 1),
                    rate(result.transactionsPerSecond()),
                    rate(result.typePerSecond()[0]),
                    rate(result.lockRequestsPerSecond()),
                    fixed(result.statistics().meanLockMicros(), 2),
                    fixed(result.localLockMedianMicros(), 2),
                    fixed(lockSharePercent(result.statistics()), 1),
                    fixed(result.abortPercent(), 2),
                    fixed(serializable ? ThesisNumbers.SERIALIZABLE_LOCKS : ThesisNumbers.READ_COMMITTED_LOCKS, 1),
                    fixed(serializable ? ThesisNumbers.SERIALIZABLE_MTPS : ThesisNumbers.READ_COMMITTED_MTPS, 1),
                    serializable ? fixed(ThesisNumbers.NEW_ORDER_MTPS, 1) : "",
                    ">" + fixed(ThesisNumbers.LOCK_REQUESTS_MPS, 0)));
        }
        if (results.size() == 2) {
            LocksResult serializable = results.get(0);
            LocksResult readCommitted = results.get(1);
            rows.add(List.of(
                    "RC / serializable",
                    fixed(readCommitted.locksPerTransaction() / serializable.locksPerTransaction(), 2),
                    fixed(readCommitted.transactionsPerSecond() / serializable.transactionsPerSecond(), 2),
                    "",
                    fixed(readCommitted.lockRequestsPerSecond() / serializable.lockRequestsPerSecond(), 2),
                    fixed(
                            readCommitted.statistics().meanLockMicros()
                                    / serializable.statistics().meanLockMicros(),
                            2),
                    fixed(readCommitted.localLockMedianMicros() / serializable.localLockMedianMicros(), 2),
                    "",
                    "",
                    fixed(ThesisNumbers.READ_COMMITTED_LOCKS / ThesisNumbers.SERIALIZABLE_LOCKS, 2),
                    fixed(ThesisNumbers.READ_COMMITTED_MTPS / ThesisNumbers.SERIALIZABLE_MTPS, 2),
                    "",
                    "1.00"));
        }
        return new ResultTable(
                List.of(
                        Column.text("isolation"),
                        Column.number("locks/tx"),
                        Column.number("tx/s"),
                        Column.number("new-order/s"),
                        Column.number("lock req/s"),
                        Column.number("lock us"),
                        Column.number("local lock med. us"),
                        Column.number("lock % of tx"),
                        Column.number("abort %"),
                        Column.number("paper locks/tx"),
                        Column.number("paper M tx/s"),
                        Column.number("paper M new-order/s"),
                        Column.number("paper M lock req/s")),
                rows);
    }

    /**
     * Per isolation level and lock level: requests per transaction, the share that went to another node, that waited in
     * a queue, that was refused and that took over 20 µs (a park or a descheduled thread rather than a spin), the mean
     * latency and queue time, the level's share of all lock time, the worst.
     */
    static ResultTable levelsTable(List<LocksResult> results) {
        List<List<String>> rows = new ArrayList<>();
        for (LocksResult result : results) {
            LockLevelStatistics levels = result.lockLevels();
            if (levels == null) {
                continue;
            }
            List<String> names = WorkloadRunner.levelNames(result.lockCase().newWorkload());
            long transactions = Math.max(1, result.statistics().transactions());
            double totalMicros = 0;
            for (int level = 0; level < levels.levels(); level++) {
                totalMicros += levels.totalLatencyMicros(level);
            }
            for (int level = 0; level < levels.levels(); level++) {
                long requests = levels.requests(level);
                rows.add(List.of(
                        result.lockCase().isolationName(),
                        level < names.size() ? names.get(level) : Integer.toString(level),
                        fixed((double) requests / transactions, 2),
                        fixed(percent(levels.remote(level), requests), 2),
                        fixed(percent(levels.queued(level), requests), 3),
                        Long.toString(levels.denied(level)),
                        fixed(percent(levels.slow(level), requests), 2),
                        fixed(levels.meanLatencyMicros(level), 2),
                        fixed(levels.meanQueuedMicros(level), 3),
                        fixed(totalMicros == 0 ? 0 : 100 * levels.totalLatencyMicros(level) / totalMicros, 1),
                        fixed(levels.maxLatencyMicros(level), 0)));
            }
        }
        return new ResultTable(
                List.of(
                        Column.text("isolation"),
                        Column.text("lock level"),
                        Column.number("locks/tx"),
                        Column.number("remote %"),
                        Column.number("queued %"),
                        Column.number("refused"),
                        Column.number("> 20 us %"),
                        Column.number("lock us"),
                        Column.number("queue us"),
                        Column.number("% of lock time"),
                        Column.number("max us")),
                rows);
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    /**
     * The share of the agents' transaction time spent acquiring locks; the rest (2PC vote, clean-up, data) is paid
     * per transaction, so it weighs more on read committed's shorter transactions when agents, not servers, bound the
     * throughput.
     */
    private static double lockSharePercent(AgentStatistics s) {
        return s.transactionNs == 0 ? Double.NaN : 100.0 * (s.localLockNs + s.remoteLockNs) / s.transactionNs;
    }
}
