package dev.faro.bench.locks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.faro.bench.report.ResultTable;
import dev.faro.txn.model.TransactionModel;
import dev.faro.txn.node.AgentStatistics;
import dev.faro.txn.node.ModelCalibration;
import dev.faro.txn.tpcc.TpccIsolation;
import dev.faro.txn.tpcc.TpccLockSets;
import dev.faro.txn.workload.LockLevelStatistics;
import dev.faro.txn.workload.WorkloadRunner;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The model fit and the tables of {@code faro bench locks}, on made-up measurements. */
class LocksReportTest {

    private static LocksResult result(double remotePercent, long localLockNs, long remoteLockNs, long voteNs) {
        LocksCase lockCase = LocksBenchmarkConfig.defaults().baseCase().withSynthetic(remotePercent);
        AgentStatistics statistics = new AgentStatistics();
        statistics.committed = 1_000;
        statistics.localLocks = 10_000;
        statistics.localLockNs = 10_000 * localLockNs;
        statistics.remoteLocks = remotePercent == 0 ? 0 : 10_000;
        statistics.remoteLockNs = statistics.remoteLocks * remoteLockNs;
        statistics.queuedNs = (statistics.localLocks + statistics.remoteLocks) * 100L; // 0.1 µs per request
        statistics.votes = remotePercent == 0 ? 0 : 500;
        statistics.voteNs = statistics.votes * voteNs;
        statistics.cleanUps = 1_000;
        statistics.cleanUpNs = 1_000 * 7_000L;
        return new LocksResult(
                lockCase,
                statistics,
                new long[] {1_000},
                1_000,
                new double[] {1_000},
                10_000,
                20,
                30,
                0.4,
                15,
                40,
                25,
                60);
    }

    @Test
    void modelIsFittedFromTheLowestAndHighestRemoteRuns() {
        List<LocksResult> sweep = List.of(result(0, 20_100, 0, 0), result(50, 20_100, 30_100, 9_000));
        TransactionModel model = RemoteSweepTable.fit(sweep);
        assertThat(model.localCommMicros()).isCloseTo(10.0, within(1e-9)); // (20.1 - 0.1) / 2
        assertThat(model.queueMicros()).isCloseTo(0.1, within(1e-9));
        assertThat(model.cleanUpMicros()).isCloseTo(7.0, within(1e-9));
        assertThat(model.voteMicros()).isCloseTo(9.0, within(1e-9));
        assertThat(model.remoteCommMicros()).isCloseTo(15.0, within(1e-9)); // (30.1 - 0.1) / 2
    }

    private static LocksResult calibrated(double remotePercent, ModelCalibration calibration) {
        LocksResult r = result(remotePercent, 20_100, 30_100, 9_000);
        return new LocksResult(
                r.lockCase(),
                r.statistics(),
                r.committedByType(),
                r.transactionsPerSecond(),
                r.typePerSecond(),
                r.lockRequestsPerSecond(),
                r.pingLocalMicros(),
                r.pingRemoteMicros(),
                r.serverProcessingMicros(),
                r.localLockMedianMicros(),
                r.localLockP99Micros(),
                r.remoteLockMedianMicros(),
                r.remoteLockP99Micros(),
                calibration,
                null);
    }

    @Test
    void modelIsFedByTheMicroBenchmarksMediansNotBySweepPoints() {
        List<LocksResult> sweep = List.of(
                calibrated(0, new ModelCalibration(4, 6, 20, 3)),
                calibrated(10, new ModelCalibration(5, 8, 30, 4)),
                calibrated(50, new ModelCalibration(100, 100, 100, 100))); // an outlier run
        TransactionModel model = RemoteSweepTable.model(sweep);
        assertThat(model.localCommMicros()).isCloseTo(2.5, within(1e-9)); // median 5 / 2
        assertThat(model.remoteCommMicros()).isCloseTo(4.0, within(1e-9));
        assertThat(model.voteMicros()).isCloseTo(30, within(1e-9));
        assertThat(model.cleanUpMicros()).isCloseTo(4, within(1e-9));
        assertThat(model.queueMicros()).as("the workload's queue time").isCloseTo(0.1, within(1e-9));
        assertThat(RemoteSweepTable.remoteTable(sweep).format()).contains("t_local 2.50", "t_vote 30.0");
    }

    @Test
    void aCalibratedSweepPrintsTheTermsItsOwnAgentsSawBesideTheMicroBenchmarks() {
        List<LocksResult> sweep = List.of(
                calibrated(0, new ModelCalibration(40, 60, 20, 30)),
                calibrated(50, new ModelCalibration(40, 60, 20, 30)));
        ResultTable table = RemoteSweepTable.remoteTable(sweep);
        List<String> own = table.rows().getLast();
        assertThat(own.getFirst()).isEqualTo("sweep's own");
        TransactionModel fitted = RemoteSweepTable.fit(sweep);
        assertThat(own).contains("t_local " + String.format(java.util.Locale.ROOT, "%.2f", fitted.localCommMicros()));
        assertThat(table.rows().get(table.rows().size() - 2)).contains("model", "t_local 20.00");
    }

    @Test
    void contentionTableShowsTheQueueTimeOfEachHotShare() {
        LocksCase base = LocksBenchmarkConfig.defaults().baseCase();
        AgentStatistics contended = new AgentStatistics();
        contended.committed = 100;
        contended.localLocks = 1_000;
        contended.localLockNs = 1_000 * 50_000L;
        contended.queuedNs = 1_000 * 30_000L; // 30 µs per request in the waiting groups
        LocksResult quiet = result(1, 20_100, 30_100, 9_000);
        LocksResult hot = new LocksResult(
                base.withContention(1, 50),
                contended,
                new long[] {100},
                50,
                new double[] {50},
                500,
                20,
                30,
                0.4,
                40,
                90,
                60,
                200);
        String text = LoadTables.contentionTable(List.of(quiet, hot)).format();
        assertThat(text).contains("queue us", "30.00", "hot %", "50");
        assertThat(base.withContention(1, 50).label()).contains("50% hot");
    }

    @Test
    void remoteTableHasThePapersColumnsBesideOurs() {
        ResultTable table =
                RemoteSweepTable.remoteTable(List.of(result(0, 20_100, 0, 0), result(50, 20_100, 30_100, 9_000)));
        assertThat(table.format()).contains("paper M tx/s", "39.39", "13.99", "paper model t_tx us", "102.0", "model");
        assertThat(table.rows()).hasSize(3);
    }

    @Test
    void breakdownComparesMediansWithTheRoundTrip() {
        ResultTable table = BreakdownTable.breakdownTable(result(50, 20_100, 30_100, 9_000));
        String text = table.format();
        assertThat(text).contains("2PC vote", "8.50", "waiting group", "0.13", "server processing", "0.38");
        // medians 15 and 25 µs against round trips of 20 and 30 µs
        assertThat(text).contains("0.75", "0.83");
    }

    @Test
    void isolationTableShowsTheRatiosAndThePapers() {
        LocksCase base = LocksBenchmarkConfig.defaults().baseCase();
        LocksResult serializable = new LocksResult(
                base.withTpcc(dev.faro.txn.tpcc.TpccIsolation.SERIALIZABLE),
                new AgentStatistics(),
                new long[5],
                100,
                new double[] {45, 43, 4, 4, 4},
                5_300,
                10,
                10,
                0.3,
                1,
                1,
                1,
                1);
        LocksResult readCommitted = new LocksResult(
                base.withTpcc(dev.faro.txn.tpcc.TpccIsolation.READ_COMMITTED),
                new AgentStatistics(),
                new long[5],
                180,
                new double[] {81, 77, 7, 7, 7},
                5_000,
                10,
                10,
                0.3,
                1,
                1,
                1,
                1);
        String text = IsolationTables.isolationTable(List.of(serializable, readCommitted))
                .format();
        assertThat(text).contains("RC / serializable", "1.80", "53.2", "27.9", "13.6", "24.5");
    }

    @Test
    void levelsTableSplitsTpccLockTimeByLevel() {
        LocksCase serializable = LocksBenchmarkConfig.defaults().baseCase().withTpcc(TpccIsolation.SERIALIZABLE);
        AgentStatistics statistics = new AgentStatistics();
        statistics.committed = 10;
        LockLevelStatistics levels = new LockLevelStatistics(TpccLockSets.LEVELS.size() + 1);
        int warehouse = TpccLockSets.LEVELS.indexOf("warehouse row");
        int stock = TpccLockSets.LEVELS.indexOf("stock rows");
        for (int i = 0; i < 10; i++) {
            levels.record(warehouse, false, true, 2_000, 0);
        }
        levels.record(stock, true, true, 400_000, 300_000); // one remote stock lock queued 300 µs
        levels.record(stock, false, false, 100_000_000, 100_000_000); // one refused after the 100 ms timeout
        LocksResult result = new LocksResult(
                serializable,
                statistics,
                new long[5],
                100,
                new double[5],
                1_000,
                10,
                10,
                0.3,
                1,
                1,
                1,
                1,
                null,
                levels);
        ResultTable table = IsolationTables.levelsTable(List.of(result));
        assertThat(table.rows()).hasSize(TpccLockSets.LEVELS.size() + 1);
        assertThat(table.rows().getLast()).contains(WorkloadRunner.FIRST_LOCK);
        assertThat(table.rows().get(warehouse)).containsSubsequence("serializable", "warehouse row", "1.00", "0.00");
        // stock: 0.2 locks/tx, half remote, both queued, one refused, mean (400 + 100,000) / 2 µs
        assertThat(table.rows().get(stock))
                .containsSubsequence("stock rows", "0.20", "50.00", "100.000", "1", "100.00", "50200.00", "50150.000");
    }

    @Test
    void remoteTableWeighsTheVoteByTheShareThatHoldsARemoteExclusiveLock() {
        String text = RemoteSweepTable.remoteTable(List.of(result(0, 20_100, 0, 0), result(50, 20_100, 30_100, 9_000)))
                .format();
        // at 50 % remote, 1 - (1 - 0.5 / 5)^10 = 65.1 % of transactions hold a remote X lock
        assertThat(text).contains("model votes %", "65.1", "Eq.5.2 votes: model/meas.");
    }
}
