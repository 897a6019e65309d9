package dev.faro.bench.locks;

import static dev.faro.bench.locks.LocksFormat.fixed;
import static dev.faro.bench.locks.LocksFormat.rate;

import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.txn.node.AgentStatistics;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables of the experiments that change the load's shape: node count (Fig. 5.5), the lock-server:agent split
 * (§5.4.2) and contention on a few hot locks (not in the thesis).
 */
final class LoadTables {

    private LoadTables() {}

    static ResultTable nodesTable(List<LocksResult> results) {
        List<List<String>> rows = new ArrayList<>();
        double perNodeBase = results.getFirst().transactionsPerSecond()
                / results.getFirst().lockCase().nodes();
        for (LocksResult result : results) {
            int nodes = result.lockCase().nodes();
            rows.add(List.of(
                    Integer.toString(nodes),
                    rate(result.transactionsPerSecond()),
                    rate(result.transactionsPerSecond() / nodes),
                    rate(result.typePerSecond()[0]),
                    rate(result.lockRequestsPerSecond()),
                    fixed(result.transactionsPerSecond() / nodes / perNodeBase, 2),
                    "1.00"));
        }
        return new ResultTable(
                List.of(
                        Column.number("nodes"),
                        Column.number("tx/s"),
                        Column.number("tx/s per node"),
                        Column.number("new-order/s"),
                        Column.number("lock req/s"),
                        Column.number("per-node vs first"),
                        Column.number("paper (linear)")),
                rows);
    }

    static ResultTable rolesTable(List<LocksResult> results) {
        List<List<String>> rows = new ArrayList<>();
        for (LocksResult result : results) {
            int servers = result.lockCase().serversPerNode();
            int agents = result.lockCase().agentsPerNode();
            rows.add(List.of(
                    servers + ":" + agents,
                    rate(result.transactionsPerSecond()),
                    rate(result.lockRequestsPerSecond()),
                    fixed(result.statistics().meanLockMicros(), 1),
                    fixed(result.abortPercent(), 2)));
        }
        for (int i = 0; i < ThesisNumbers.SERVER_CORES.size(); i++) {
            int servers = ThesisNumbers.SERVER_CORES.get(i);
            rows.add(List.of(
                    "paper " + servers + ":" + (36 - servers),
                    fixed(ThesisNumbers.SERVER_CORES_MTPS.get(i), 2) + " M",
                    "",
                    "",
                    ""));
        }
        return new ResultTable(
                List.of(
                        Column.text("servers:agents"),
                        Column.number("tx/s"),
                        Column.number("lock req/s"),
                        Column.number("lock us"),
                        Column.number("abort %")),
                rows);
    }

    static ResultTable contentionTable(List<LocksResult> results) {
        List<List<String>> rows = new ArrayList<>();
        for (LocksResult result : results) {
            AgentStatistics s = result.statistics();
            rows.add(List.of(
                    LocksCase.format(result.lockCase().hotPercent()),
                    rate(result.transactionsPerSecond()),
                    rate(result.lockRequestsPerSecond()),
                    fixed(s.meanLockMicros(), 2),
                    fixed(s.meanCommunicationMicros(), 2),
                    fixed(s.meanQueueMicros(), 2),
                    fixed(s.meanProcessingMicros(), 3),
                    fixed(s.meanVoteMicros(), 1),
                    fixed(s.meanCleanUpMicros(), 1),
                    fixed(result.abortPercent(), 2)));
        }
        return new ResultTable(
                List.of(
                        Column.text("hot %"),
                        Column.number("tx/s"),
                        Column.number("lock req/s"),
                        Column.number("lock us"),
                        Column.number("comm. us"),
                        Column.number("queue us"),
                        Column.number("proc. us"),
                        Column.number("vote us"),
                        Column.number("clean-up us"),
                        Column.number("abort %")),
                rows);
    }
}
