package dev.faro.bench.hyper;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.bench.ByteSizes;
import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.Medians;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.cluster.TaskReply;
import dev.faro.hyper.HyperConfig;
import dev.faro.hyper.NetworkSchedule;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * V4 of the VLDB16 digest (the paper's Fig. 10b) across processes and a real (virtual) network: {@code nodes} worker
 * JVMs, each in its own network namespace on one bridge ({@link NamespaceCluster}), each running its own
 * {@link dev.faro.hyper.Multiplexer} over the {@code net} fabric (RC over TCP), every host's link capped in both
 * directions by {@code tc tbf} at {@code rateMbit} (the switch port's speed, with a {@code queueBytes} queue before it
 * drops), and then without caps, the sanity check where the gap should vanish (there the CPU is the bottleneck).
 * Every node shuffles {@code messagesPerNode} full messages to all others ({@link HyperShuffleHandler}), unscheduled
 * all-to-all against round-robin phases, the two alternating run by run (which goes first alternates too); the
 * coordinator checks exactly-once delivery of every run (per sender and receiver, no duplicates). The figure is the
 * median per-node throughput, from the first sender's start to the last receiver's end of stream, and each node's own
 * rate (to its own end). The paper: up to +40 % for round-robin at 8 servers (4×QDR InfiniBand). Coordination code.
 */
public final class HyperNamespaceScheduleBenchmark {

    /** What a run printed and wrote. */
    public record Report(String table, Path csvFile, Path plotFile) {}

    private static final Duration ROUND = Duration.ofMinutes(10);

    private final List<Integer> nodeCounts;
    private final int messagesPerNode;
    private final HyperConfig config;
    private final long rateMbit;
    private final int queueBytes;
    private final int runs;
    private final Path outputDirectory;
    private final Consumer<String> progress;

    /**
     * @param rateMbit each host link's cap, megabits per second, both directions
     * @param queueBytes what each capped link queues before it drops
     */
    public HyperNamespaceScheduleBenchmark(
            List<Integer> nodeCounts,
            int messagesPerNode,
            int messageBytes,
            int receivesPerPeer,
            long rateMbit,
            int queueBytes,
            int runs,
            Path outputDirectory,
            Consumer<String> progress) {
        for (int nodes : nodeCounts) {
            if (nodes < 2 || nodes > 8) {
                throw new IllegalArgumentException("node counts over namespaces must be in [2, 8]: " + nodes);
            }
        }
        if (messagesPerNode < 1 || runs < 1 || rateMbit < 1 || queueBytes < 1500) {
            throw new IllegalArgumentException("messages per node, runs and the link rate must be positive and the"
                    + " queue at least 1500 bytes: " + messagesPerNode + ", " + runs + ", " + rateMbit + ", "
                    + queueBytes);
        }
        this.config = HyperConfig.defaults().withMessageBytes(messageBytes).withReceivesPerPeer(receivesPerPeer);
        this.nodeCounts = List.copyOf(nodeCounts);
        this.messagesPerNode = messagesPerNode;
        this.rateMbit = rateMbit;
        this.queueBytes = queueBytes;
        this.runs = runs;
        this.outputDirectory = outputDirectory;
        this.progress = progress;
    }

    /** One run of both schedules: per-node throughput (slowest node's end) and each node's own rate. */
    private record Sample(double mibPerSecondPerNode, double[] perNode, long phases) {}

    public Report run() {
        double capMib = rateMbit * 1e6 / 8 / (1 << 20);
        List<List<String>> rows = new ArrayList<>();
        List<Double> x = new ArrayList<>();
        List<Double> cappedGap = new ArrayList<>();
        List<Double> plainGap = new ArrayList<>();
        for (int nodes : nodeCounts) {
            x.add((double) nodes);
            try (NamespaceCluster cluster = NamespaceCluster.start(nodes, 256, progress)) {
                for (boolean capped : new boolean[] {true, false}) {
                    if (capped) {
                        cluster.capLinks(rateMbit, queueBytes);
                    } else {
                        cluster.uncapLinks();
                    }
                    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
                    double[] allToAll = new double[runs];
                    double[] roundRobin = new double[runs];
                    double[] ratios = new double[runs];
                    double[][] allToAllNodes = new double[nodes][runs];
                    double[][] roundRobinNodes = new double[nodes][runs];
                    long phases = 0;
                    for (int r = 0; r < runs; r++) {
                        progress.accept(String.format(
                                Locale.ROOT,
                                "V4 over namespaces: %d nodes, %s, run %d of %d",
                                nodes,
                                capped ? "links capped at " + rateMbit + " Mbit/s" : "no caps",
                                r + 1,
                                runs));
                        Sample a2a = null;
                        Sample rr = null;
                        for (int turn = 0; turn < 2; turn++) {
                            boolean scheduled = (turn + r) % 2 == 1; // which goes first alternates
                            Sample sample = round(cluster, nodes, scheduled, "v4ns-" + nodes + "-" + capped + "-" + r);
                            if (scheduled) {
                                rr = sample;
                            } else {
                                a2a = sample;
                            }
                        }
                        allToAll[r] = a2a.mibPerSecondPerNode();
                        roundRobin[r] = rr.mibPerSecondPerNode();
                        ratios[r] = roundRobin[r] / allToAll[r];
                        phases += rr.phases();
                        for (int node = 0; node < nodes; node++) {
                            allToAllNodes[node][r] = a2a.perNode()[node];
                            roundRobinNodes[node][r] = rr.perNode()[node];
                        }
                    }
                    double a2a = Medians.of(allToAll);
                    double rr = Medians.of(roundRobin);
                    (capped ? cappedGap : plainGap).add(rr / a2a);
                    List<String> row = new ArrayList<>();
                    row.add(Integer.toString(nodes));
                    row.add(capped ? rateMbit + " Mbit/s (queue " + ByteSizes.format(queueBytes) + ")" : "none");
                    row.add(format(a2a));
                    row.add(format(rr));
                    row.add(String.format(Locale.ROOT, "%.2f", rr / a2a));
                    row.add(joined(ratios, "%.2f"));
                    row.add(perNode(allToAllNodes) + " | " + perNode(roundRobinNodes));
                    row.add(
                            capped
                                    ? String.format(
                                            Locale.ROOT, "%.0f %% / %.0f %%", 100 * a2a / capMib, 100 * rr / capMib)
                                    : "");
                    row.add(Long.toString(phases / runs));
                    row.add(String.format(Locale.ROOT, "%.1f", load));
                    row.add(nodes == 8 && capped ? "+40 % (1.40)" : "");
                    rows.add(row);
                }
            }
        }
        return write(rows, x, cappedGap, plainGap);
    }

    /** One timed exchange of one schedule on every node; checks exactly-once delivery. */
    private Sample round(NamespaceCluster cluster, int nodes, boolean scheduled, String name) {
        NetworkSchedule schedule = scheduled ? NetworkSchedule.ROUND_ROBIN : NetworkSchedule.ALL_TO_ALL;
        List<TaskReply> replies;
        try {
            replies = cluster.coordinator()
                    .runOnAll(
                            HyperShuffleHandler.TYPE,
                            HyperShuffleHandler.payload(
                                    name + "-" + schedule.name().toLowerCase(Locale.ROOT),
                                    messagesPerNode,
                                    Math.min(messagesPerNode, 4 * (nodes - 1)),
                                    config,
                                    schedule),
                            ROUND);
        } catch (RuntimeException e) {
            String logs = cluster.workerLogTails();
            throw new IllegalStateException(
                    "V4 over namespaces (" + schedule + ", " + nodes + " nodes) failed: " + e.getMessage()
                            + (logs.isEmpty() ? "" : "\n" + logs.strip()),
                    e);
        }
        long firstStart = Long.MAX_VALUE;
        long lastEnd = Long.MIN_VALUE;
        long phases = 0;
        long payloadBytes = replies.getFirst().result().get("payloadBytes").asLong();
        for (int node = 0; node < nodes; node++) {
            JsonNode result = replies.get(node).result();
            firstStart = Math.min(firstStart, result.get("startNs").asLong());
            lastEnd = Math.max(lastEnd, result.get("endNs").asLong());
            phases += result.get("phases").asLong();
            if (result.get("duplicates").asLong() != 0) {
                throw new IllegalStateException(schedule + ": node " + node + " received "
                        + result.get("duplicates").asLong() + " messages twice");
            }
            for (int from = 0; from < nodes; from++) {
                long sent = replies.get(from).result().get("sentTo").get(node).asLong();
                long received = result.get("receivedFrom").get(from).asLong();
                if (sent != received) {
                    throw new IllegalStateException(schedule + ": node " + from + " sent " + sent + " messages to node "
                            + node + ", which received " + received);
                }
            }
        }
        double mibPerNode = (double) messagesPerNode * payloadBytes / (1 << 20);
        double[] perNode = new double[nodes];
        for (int node = 0; node < nodes; node++) {
            JsonNode result = replies.get(node).result();
            perNode[node] = result.get("receivedBytes").asLong()
                    / (double) (1 << 20)
                    / ((result.get("endNs").asLong() - firstStart) / 1e9);
        }
        return new Sample(mibPerNode / ((lastEnd - firstStart) / 1e9), perNode, phases / nodes);
    }

    private Report write(List<List<String>> rows, List<Double> x, List<Double> cappedGap, List<Double> plainGap) {
        String setting = "link cap (tc tbf)";
        String perNode = "each node's MiB/s received (a2a | rr)";
        List<String> header = HyperScheduleBenchmark.header(setting, List.of(perNode));
        List<ResultTable.Column> columns = HyperScheduleBenchmark.columns(header, Set.of(setting, perNode));
        String table = String.format(
                        Locale.ROOT,
                        "VLDB16 V4 over network namespaces: all-to-all vs round-robin scheduling, %d x %d KiB per node"
                                + " to all others, one worker JVM and multiplexer per namespace on one bridge over the"
                                + " net fabric (RC over TCP), %d receives posted per peer, median of %d alternated runs"
                                + " (first sender's start to the last receiver's end of stream); exactly once checked%n",
                        messagesPerNode,
                        config.messageBytes() / 1024,
                        config.receivesPerPeer(),
                        runs)
                + new ResultTable(columns, rows).format();
        Path csv = outputDirectory.resolve("hyper-v4-netns.csv");
        CsvWriter.write(csv, header, rows);
        Path plot = outputDirectory.resolve("hyper-v4-netns.png");
        PlotWriter.writeLines(
                plot,
                "VLDB16 V4 over namespaces: round-robin / all-to-all (Fig. 10b: +40 % at 8 servers)",
                "nodes",
                false,
                "round-robin / all-to-all",
                List.of(
                        new PlotWriter.Line("links capped at " + rateMbit + " Mbit/s (tc tbf)", x, cappedGap, false),
                        new PlotWriter.Line("no caps (CPU-bound)", x, plainGap, false),
                        new PlotWriter.Line(
                                "paper, 4xQDR InfiniBand",
                                List.of(8.0),
                                List.of(HyperScheduleBenchmark.PAPER_GAP_AT_8),
                                true)));
        return new Report(table, csv, plot);
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    private static String perNode(double[][] perNodeRuns) {
        double[] medians = new double[perNodeRuns.length];
        for (int node = 0; node < perNodeRuns.length; node++) {
            medians[node] = Medians.of(perNodeRuns[node]);
        }
        return joined(medians, "%.1f");
    }

    /** The values, formatted, separated by spaces. */
    static String joined(double[] values, String format) {
        StringBuilder text = new StringBuilder();
        for (double value : values) {
            text.append(text.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, format, value));
        }
        return text.toString();
    }
}
