package dev.faro.bench.locks;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.MachineInfo;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.bench.report.RunMetadata;
import dev.faro.txn.model.TransactionModel;
import dev.faro.txn.node.AgentStatistics;
import dev.faro.txn.node.ModelCalibration;
import dev.faro.txn.workload.LockLevelStatistics;
import dev.faro.txn.workload.SyntheticWorkload;
import dev.faro.txn.workload.WorkloadRunner;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The tables, CSV files, plot and metadata of {@code faro bench locks}, each table with the thesis's figures in
 * columns beside ours ("paper"). Written under the output directory as {@code locks-<experiment>.csv},
 * {@code locks-remote.png} and {@code locks.json}.
 *
 * @param text every table, ready to print
 * @param files what was written
 */
public record LocksReport(String text, List<Path> files) {

    static LocksReport write(
            LocksBenchmarkConfig config, Map<String, List<LocksResult>> results, Instant startedAt, Duration elapsed) {
        StringBuilder text = new StringBuilder();
        List<Path> files = new ArrayList<>();
        Path out = config.outputDirectory();
        for (Map.Entry<String, List<LocksResult>> entry : results.entrySet()) {
            ResultTable table = switch (entry.getKey()) {
                case "remote" -> remoteTable(entry.getValue());
                case "isolation" -> isolationTable(entry.getValue());
                case "nodes" -> nodesTable(entry.getValue());
                case "roles" -> rolesTable(entry.getValue());
                case "contention" -> contentionTable(entry.getValue());
                default -> throw new IllegalStateException(entry.getKey());
            };
            text.append(title(entry.getKey()))
                    .append('\n')
                    .append(table.format())
                    .append('\n');
            Path csv = out.resolve("locks-" + entry.getKey() + ".csv");
            CsvWriter.write(csv, header(table), withStatistics(table, entry.getValue()));
            files.add(csv);
        }
        if (results.containsKey("isolation")) {
            ResultTable levels = levelsTable(results.get("isolation"));
            if (!levels.rows().isEmpty()) {
                text.append(
                                "TPC-C lock requests by lock level: where serializable's and read committed's lock time goes")
                        .append('\n')
                        .append(levels.format())
                        .append('\n');
                Path csv = out.resolve("locks-levels.csv");
                CsvWriter.write(
                        csv, levels.columns().stream().map(Column::title).toList(), levels.rows());
                files.add(csv);
            }
        }
        LocksResult breakdownSource = breakdownSource(results);
        if (breakdownSource != null) {
            text.append("Latency breakdown (Fig. 5.6), ")
                    .append(breakdownSource.lockCase().label())
                    .append('\n')
                    .append(breakdownTable(breakdownSource).format())
                    .append('\n');
        }
        if (results.containsKey("contention")
                && breakdownSource != results.get("contention").getLast()) {
            LocksResult contended = results.get("contention").getLast();
            text.append("Latency breakdown under contention, ")
                    .append(contended.lockCase().label())
                    .append('\n')
                    .append(breakdownTable(contended).format())
                    .append('\n');
        }
        if (results.containsKey("remote") && results.get("remote").size() > 1) {
            Path plot = out.resolve("locks-remote.png");
            writeRemotePlot(plot, results.get("remote"));
            files.add(plot);
        }
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("experiments", config.experiments());
        parameters.put("nodes", config.nodes());
        parameters.put("serversPerNode", config.serversPerNode());
        parameters.put("agentsPerNode", config.agentsPerNode());
        parameters.put("remotePercents", config.remotePercents());
        parameters.put("provider", config.provider());
        parameters.put("policy", config.policy().name());
        parameters.put("lockTimeoutMs", config.lockTimeoutMs());
        parameters.put("warmupMs", config.warmupMs());
        parameters.put("durationMs", config.durationMs());
        parameters.put("runs", config.runs());
        Path metadata = out.resolve("locks.json");
        new RunMetadata("locks", startedAt, elapsed, MachineInfo.collect(), parameters).write(metadata);
        files.add(metadata);
        return new LocksReport(text.toString(), List.copyOf(files));
    }

    private static String title(String experiment) {
        return switch (experiment) {
            case "remote" ->
                "Synthetic workload against the remote-lock probability, with the model of Eqs. 5.1-5.4 fed by"
                        + " micro-benchmarks of this run: local and remote lock, 2PC vote, clean-up (Table 5.1; paper:"
                        + " 2,520 concurrent transactions on 70 Cray nodes)";
            case "isolation" -> "TPC-C, serializable against read committed (Sec. 5.4.2; paper: 140 nodes)";
            case "nodes" -> "TPC-C serializable against node count (Fig. 5.5; paper: linear from 1 to 140 nodes)";
            case "contention" ->
                "Contention: synthetic workload (10 locks, 1% remote) against the share of its locks on "
                        + SyntheticWorkload.HOT_LOCKS_PER_SERVER
                        + " hot locks per server (not in the thesis, whose locks rarely conflict: 0.13 us of queue)";
            case "roles" ->
                "Lock servers against transaction agents per node, TPC-C serializable (Sec. 5.4.2; paper:"
                        + " 36 cores per node)";
            default -> experiment;
        };
    }

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
     * The model fitted from the sweep itself (for results without micro-benchmarks): local message and queue time and clean-up from the run with the fewest
     * remote locks, remote message and vote from the run with the most.
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
        rows.add(List.of(
                "model",
                "t_local " + fixed(model.localCommMicros(), 2),
                "t_remote " + fixed(model.remoteCommMicros(), 2),
                "t_queue " + fixed(model.queueMicros(), 2),
                "t_vote " + fixed(model.voteMicros(), 1),
                "t_clean " + fixed(model.cleanUpMicros(), 1),
                "(us)",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                ""));
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

    private static LocksResult breakdownSource(Map<String, List<LocksResult>> results) {
        if (results.containsKey("isolation")) {
            return results.get("isolation").getFirst();
        }
        if (results.containsKey("remote")) {
            return results.get("remote").getLast();
        }
        List<LocksResult> any = results.values().iterator().next();
        return any.getLast();
    }

    private static void writeRemotePlot(Path file, List<LocksResult> sweep) {
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

    private static List<String> header(ResultTable table) {
        List<String> header = new ArrayList<>();
        table.columns().forEach(column -> header.add(column.title()));
        header.addAll(AgentStatistics.FIELDS);
        header.add("pingLocalUs");
        header.add("pingRemoteUs");
        return header;
    }

    private static List<List<String>> withStatistics(ResultTable table, List<LocksResult> results) {
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < table.rows().size(); i++) {
            List<String> row = new ArrayList<>(table.rows().get(i));
            if (i < results.size()) {
                for (long value : results.get(i).statistics().values()) {
                    row.add(Long.toString(value));
                }
                row.add(fixed(results.get(i).pingLocalMicros(), 3));
                row.add(fixed(results.get(i).pingRemoteMicros(), 3));
            } else {
                for (int j = 0; j < AgentStatistics.FIELDS.size() + 2; j++) {
                    row.add("");
                }
            }
            rows.add(row);
        }
        return rows;
    }

    private static String rate(double perSecond) {
        if (!Double.isFinite(perSecond)) {
            return "-";
        }
        if (perSecond >= 1e6) {
            return String.format(Locale.ROOT, "%.2f M", perSecond / 1e6);
        }
        if (perSecond >= 1e3) {
            return String.format(Locale.ROOT, "%.1f k", perSecond / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", perSecond);
    }

    private static String fixed(double value, int decimals) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%." + decimals + "f", value) : "-";
    }
}
