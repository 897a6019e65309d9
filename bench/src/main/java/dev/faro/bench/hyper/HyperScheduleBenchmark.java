package dev.faro.bench.hyper;

import dev.faro.bench.ByteSizes;
import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.Medians;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.hyper.HyperConfig;
import dev.faro.hyper.NetworkSchedule;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * V4 of the VLDB16 digest (the paper's Fig. 10b): every node shuffles {@code messagesPerNode} full messages to all the
 * others through its multiplexer, unscheduled all-to-all against round-robin phases, over in-process {@code shm} nodes
 * with the fabric's switch-contention model ({@code shm.port-bandwidth}: each node's link and switch port carry {@code
 * portBandwidth} bytes per second, a small input buffer, head-of-line blocking) and without it (plain loopback, where
 * the gap should vanish). Per node count and model, the two schedules alternate run by run ({@code runs} each, a fresh
 * cluster per run, one warm-up exchange first); the figure is the median per-node throughput, the slowest node's end
 * of stream deciding. The paper: up to +40 % for round-robin at 8 servers (4×QDR InfiniBand, 1,680 × 512 KB per
 * server). Coordination code.
 */
public final class HyperScheduleBenchmark {

    /** What a run printed and wrote. */
    public record Report(String table, Path csvFile, Path plotFile) {}

    /** The paper's gap at 8 servers (Fig. 10b, §3.2.3): round-robin / all-to-all. */
    static final double PAPER_GAP_AT_8 = 1.40;

    private final List<Integer> nodeCounts;
    private final int messagesPerNode;
    private final int messageBytes;
    private final int receivesPerPeer;
    private final int postedPerPeer;
    private final long portBandwidth;
    private final long inputBuffer;
    private final int runs;
    private final Path outputDirectory;
    private final Consumer<String> progress;

    /**
     * @param receivesPerPeer receives each multiplexer keeps posted per peer: the credit a sender has toward a node
     *     (returned by an 8-byte WRITE on the same queue pair as the returning node's data to it)
     * @param postedPerPeer with the contention model: data messages a multiplexer keeps posted per peer at most (0: as
     *     credit allows), see {@link HyperConfig#postedPerPeer()}; without the model nothing waits in a queue pair and
     *     the transport's default (0) is used
     * @param portBandwidth the {@code shm.port-bandwidth} of the contended runs, bytes per second
     * @param inputBuffer the {@code shm.input-buffer} of the contended runs, bytes
     */
    public HyperScheduleBenchmark(
            List<Integer> nodeCounts,
            int messagesPerNode,
            int messageBytes,
            int receivesPerPeer,
            int postedPerPeer,
            long portBandwidth,
            long inputBuffer,
            int runs,
            Path outputDirectory,
            Consumer<String> progress) {
        for (int nodes : nodeCounts) {
            if (nodes < 2 || nodes > 8) {
                throw new IllegalArgumentException("node counts must be in [2, 8]: " + nodes);
            }
        }
        if (messagesPerNode < 1 || runs < 1 || portBandwidth < 1 || inputBuffer < 0) {
            throw new IllegalArgumentException("messages per node, runs and the port bandwidth must be positive: "
                    + messagesPerNode + ", " + runs + ", " + portBandwidth);
        }
        HyperConfig.defaults()
                .withMessageBytes(messageBytes)
                .withReceivesPerPeer(receivesPerPeer)
                .withPostedPerPeer(postedPerPeer); // validates
        this.nodeCounts = List.copyOf(nodeCounts);
        this.messagesPerNode = messagesPerNode;
        this.messageBytes = messageBytes;
        this.receivesPerPeer = receivesPerPeer;
        this.postedPerPeer = postedPerPeer;
        this.portBandwidth = portBandwidth;
        this.inputBuffer = inputBuffer;
        this.runs = runs;
        this.outputDirectory = outputDirectory;
        this.progress = progress;
    }

    public Report run() throws InterruptedException {
        String cap = ByteSizes.format(portBandwidth);
        List<List<String>> rows = new ArrayList<>();
        List<Double> x = new ArrayList<>();
        List<Double> contendedGap = new ArrayList<>();
        List<Double> plainGap = new ArrayList<>();
        List<Double> paper = new ArrayList<>();
        double capMib = portBandwidth / (double) (1 << 20);
        for (int nodes : nodeCounts) {
            x.add((double) nodes);
            paper.add(nodes == 8 ? PAPER_GAP_AT_8 : Double.NaN);
            for (boolean contended : new boolean[] {true, false}) {
                double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
                double[] allToAll = new double[runs];
                double[] roundRobin = new double[runs];
                double[] ratios = new double[runs];
                long phases = 0;
                for (int r = 0; r < runs; r++) {
                    progress.accept(String.format(
                            Locale.ROOT,
                            "V4: %d nodes, %s, run %d of %d",
                            nodes,
                            contended ? "contention model " + cap + "/s" : "no contention model",
                            r + 1,
                            runs));
                    allToAll[r] =
                            round(nodes, contended, NetworkSchedule.ALL_TO_ALL).mibPerSecondPerNode();
                    ShuffleRound.Result scheduled = round(nodes, contended, NetworkSchedule.ROUND_ROBIN);
                    roundRobin[r] = scheduled.mibPerSecondPerNode();
                    phases += scheduled.phases();
                    ratios[r] = roundRobin[r] / allToAll[r];
                }
                double a2a = Medians.of(allToAll);
                double rr = Medians.of(roundRobin);
                double gap = rr / a2a;
                (contended ? contendedGap : plainGap).add(gap);
                List<String> row = new ArrayList<>();
                row.add(Integer.toString(nodes));
                row.add(contended ? cap + "/s, buffer " + ByteSizes.format(inputBuffer) : "none (loopback)");
                row.add(format(a2a));
                row.add(format(rr));
                row.add(String.format(Locale.ROOT, "%.2f", gap));
                row.add(joined(ratios));
                row.add(
                        contended
                                ? String.format(Locale.ROOT, "%.0f %% / %.0f %%", 100 * a2a / capMib, 100 * rr / capMib)
                                : "");
                row.add(Long.toString(phases / runs));
                row.add(String.format(Locale.ROOT, "%.1f", load));
                row.add(nodes == 8 && contended ? "+40 % (1.40)" : "");
                rows.add(row);
            }
        }
        List<String> header = header("contention model", List.of());
        List<ResultTable.Column> columns = columns(header, Set.of("contention model"));
        String table = String.format(
                        Locale.ROOT,
                        "VLDB16 V4: all-to-all vs round-robin scheduling, %d x %d KiB per node to all others, %d receives"
                                + " posted per peer, %s data messages posted per peer at most with the model, in-process nodes over shm, median of %d alternated runs (slowest"
                                + " node's end of stream)%n",
                        messagesPerNode,
                        messageBytes / 1024,
                        receivesPerPeer,
                        postedPerPeer == 0 ? "credit's" : Integer.toString(postedPerPeer),
                        runs)
                + new ResultTable(columns, rows).format();
        Path csv = outputDirectory.resolve("hyper-v4.csv");
        CsvWriter.write(csv, header, rows);
        Path plot = outputDirectory.resolve("hyper-v4.png");
        PlotWriter.writeLines(
                plot,
                "VLDB16 V4: round-robin / all-to-all throughput (Fig. 10b: +40 % at 8 servers)",
                "nodes",
                false,
                "round-robin / all-to-all",
                List.of(
                        new PlotWriter.Line("contention model (" + cap + "/s ports)", x, contendedGap, false),
                        new PlotWriter.Line("no contention model (loopback)", x, plainGap, false),
                        new PlotWriter.Line("paper, 4xQDR InfiniBand", x, paper, true)));
        return new Report(table, csv, plot);
    }

    /**
     * V4's columns in either setting (the contention model here, the link caps over namespaces): {@code setting}
     * second, {@code extra} after the per-run ratios.
     */
    static List<String> header(String setting, List<String> extra) {
        List<String> header = new ArrayList<>(List.of(
                "nodes",
                setting,
                "all-to-all MiB/s per node",
                "round-robin MiB/s per node",
                "round-robin / all-to-all",
                "per-run ratios"));
        header.addAll(extra);
        header.addAll(List.of("cap used (a2a / rr)", "phases per run", "load", "paper (Fig. 10b)"));
        return List.copyOf(header);
    }

    /** The table's columns: numbers right-aligned, {@code text} and V4's own text columns left-aligned. */
    static List<ResultTable.Column> columns(List<String> header, Set<String> text) {
        Set<String> left = new HashSet<>(text);
        left.addAll(List.of("per-run ratios", "cap used (a2a / rr)", "paper (Fig. 10b)"));
        List<ResultTable.Column> columns = new ArrayList<>();
        for (String title : header) {
            columns.add(left.contains(title) ? ResultTable.Column.text(title) : ResultTable.Column.number(title));
        }
        return columns;
    }

    private ShuffleRound.Result round(int nodes, boolean contended, NetworkSchedule schedule)
            throws InterruptedException {
        HyperConfig config = HyperConfig.defaults()
                .withMessageBytes(messageBytes)
                .withReceivesPerPeer(receivesPerPeer)
                .withPostedPerPeer(contended ? postedPerPeer : 0) // without the model nothing waits in a queue pair
                .withSchedule(schedule);
        Map<String, String> options = contended
                ? Map.of(
                        "shm.port-bandwidth",
                        Long.toString(portBandwidth),
                        "shm.input-buffer",
                        Long.toString(inputBuffer))
                : Map.of();
        try (InProcessHyperCluster cluster = new InProcessHyperCluster("hyper-v4", nodes, config, options, progress)) {
            ShuffleRound warmUp =
                    new ShuffleRound(cluster, "hyper-v4-warm-up", Math.min(messagesPerNode, 16 * (nodes - 1)));
            warmUp.run();
            return new ShuffleRound(cluster, "hyper-v4", messagesPerNode).run();
        }
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.0f", value);
    }

    private static String joined(double[] values) {
        return HyperNamespaceScheduleBenchmark.joined(values, "%.2f");
    }
}
