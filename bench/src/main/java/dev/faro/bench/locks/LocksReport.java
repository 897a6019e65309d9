package dev.faro.bench.locks;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.MachineInfo;
import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.bench.report.RunMetadata;
import dev.faro.txn.node.AgentStatistics;
import dev.faro.txn.workload.SyntheticWorkload;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tables, CSV files, plot and metadata of {@code faro bench locks}, each table with the thesis's figures in
 * columns beside ours ("paper"). Written under the output directory as {@code locks-<experiment>.csv},
 * {@code locks-remote.png} and {@code locks.json}. The tables themselves are built by {@link RemoteSweepTable} (Table
 * 5.1 and the model), {@link IsolationTables} (§5.4.2), {@link BreakdownTable} (Fig. 5.6) and {@link LoadTables}
 * (nodes, roles, contention).
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
                case "remote" -> RemoteSweepTable.remoteTable(entry.getValue());
                case "isolation" -> IsolationTables.isolationTable(entry.getValue());
                case "nodes" -> LoadTables.nodesTable(entry.getValue());
                case "roles" -> LoadTables.rolesTable(entry.getValue());
                case "contention" -> LoadTables.contentionTable(entry.getValue());
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
            ResultTable levels = IsolationTables.levelsTable(results.get("isolation"));
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
        LocksResult breakdownSource = BreakdownTable.breakdownSource(results);
        if (breakdownSource != null) {
            text.append("Latency breakdown (Fig. 5.6), ")
                    .append(breakdownSource.lockCase().label())
                    .append('\n')
                    .append(BreakdownTable.breakdownTable(breakdownSource).format())
                    .append('\n');
        }
        if (results.containsKey("contention")
                && breakdownSource != results.get("contention").getLast()) {
            LocksResult contended = results.get("contention").getLast();
            text.append("Latency breakdown under contention, ")
                    .append(contended.lockCase().label())
                    .append('\n')
                    .append(BreakdownTable.breakdownTable(contended).format())
                    .append('\n');
        }
        if (results.containsKey("remote") && results.get("remote").size() > 1) {
            Path plot = out.resolve("locks-remote.png");
            RemoteSweepTable.writeRemotePlot(plot, results.get("remote"));
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
        parameters.put("pinned", config.pinned());
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
                row.add(LocksFormat.fixed(results.get(i).pingLocalMicros(), 3));
                row.add(LocksFormat.fixed(results.get(i).pingRemoteMicros(), 3));
            } else {
                for (int j = 0; j < AgentStatistics.FIELDS.size() + 2; j++) {
                    row.add("");
                }
            }
            rows.add(row);
        }
        return rows;
    }
}
