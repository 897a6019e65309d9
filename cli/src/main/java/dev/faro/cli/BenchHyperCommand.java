package dev.faro.cli;

import dev.faro.bench.ByteSizes;
import dev.faro.bench.hyper.HyperBroadcastRuleBenchmark;
import dev.faro.bench.hyper.HyperCountsBenchmark;
import dev.faro.bench.hyper.HyperNamespaceScheduleBenchmark;
import dev.faro.bench.hyper.HyperPlacementBenchmark;
import dev.faro.bench.hyper.HyperScheduleBenchmark;
import dev.faro.bench.hyper.HyperSkewBenchmark;
import dev.faro.engine.tpch.TpchQueries;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code faro bench hyper}: wiring only. Runs {@link HyperCountsBenchmark} (VLDB16 V1), {@link HyperSkewBenchmark}
 * (V2), {@link HyperBroadcastRuleBenchmark} (V3), {@link HyperScheduleBenchmark} (V4) and
 * {@link HyperNamespaceScheduleBenchmark} (V4 across network namespaces), {@link HyperPlacementBenchmark} (V8/V12) and prints their tables. Bad values are parameter errors (exit 2); a run that fails prints one line and exits 1.
 */
@Command(
        name = "hyper",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "VLDB16 (HyPer). V1: connections in the cluster, buffers per exchange operator and the size ratio up to"
                    + " which a broadcast pays, for classic parallelism (n*t units) against hybrid parallelism (one"
                    + " multiplexer per node), from the paper's formulas, next to the queue pairs real hyper"
                    + " multiplexers connected (in-process nodes over shm, one repartition exchange each).",
            "The paper's row is 6 nodes x 40 threads: 57,560 vs 30 connections, 239 vs 5 buffers. Writes"
                    + " hyper-v1.csv and hyper-v1.png under --out.",
            "V2: Zipf-distributed keys (--zipf, default the paper's 0.84) hash-partitioned as the shuffle does into"
                    + " n*t classic units vs n servers; the most loaded unit's expected input over its fair share,"
                    + " for each node count and --key-domains (the paper at 6 x 40: classic > 2x, hybrid +2.8 %%)."
                    + " Writes hyper-v2.csv and hyper-v2.png.",
            "V3: the rule 'broadcast when the size ratio exceeds n-1 (hybrid) vs n*t-1 (classic)' on the TPC-H"
                    + " plans' joins it decides (estimated sizes): which joins flip at --tpch-nodes x"
                    + " --measured-threads, and up to how many units each still broadcasts (the paper at 6 x 40:"
                    + " above 5 vs above 239). Writes hyper-v3.csv and hyper-v3.png.",
            "V4 (not run by default): each node shuffles --messages messages of --message-size to all others"
                    + " through its multiplexer, unscheduled all-to-all vs round-robin phases, with shm's switch"
                    + " contention model (--port-bandwidth per link and port, --input-buffer, head-of-line blocking)"
                    + " and without it (the gap should vanish); median of --runs alternated runs per node count (the"
                    + " paper, Fig. 10b: +40 %% at 8 servers). Writes hyper-v4.csv and hyper-v4.png.",
            "V4-netns (not run by default; needs root, ip and tc): the same shuffle across processes, one worker JVM"
                    + " and multiplexer per network namespace on one bridge over the net fabric, every link capped in"
                    + " both directions by tc tbf at --link-rate Mbit/s (--link-queue bytes queued before a drop), then"
                    + " without caps (the gap should vanish); --nodes (default 3,4 here), --messages, alternated"
                    + " --runs, exactly once checked. Writes hyper-v4-netns.csv and hyper-v4-netns.png.",
            "V8 (not run by default): the TPC-H --queries (all 22 by default) at each --sf on a local cluster of --tpch-nodes worker"
                    + " JVMs over --transport, with chunked (random) and first-key placement (whose plans join ORDERS"
                    + " with LINEITEM and PART with PARTSUPP where they lie): bytes shuffled per query and per SF,"
                    + " median time of --runs (the paper, Table 2: 0.28 vs 0.09 GB per SF at 6 servers, 3.1x)."
                    + " Writes hyper-v8.csv and hyper-v8.png."
        })
final class BenchHyperCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--nodes",
            paramLabel = "N",
            split = ",",
            description = "Node counts, each in [2, 8] (default: 2,3,4,6,8; v4-netns alone: 3,4).")
    private List<Integer> nodes;

    @Option(
            names = "--threads",
            paramLabel = "T",
            description = "Threads per node of the formulas (default: ${DEFAULT-VALUE}, the paper's).")
    private int threads = 40;

    @Option(
            names = "--measured-threads",
            paramLabel = "T",
            description = "Threads per node of the measured exchange, in [1, 8] (default: ${DEFAULT-VALUE}).")
    private int measuredThreads = 2;

    @Option(
            names = "--experiments",
            paramLabel = "E",
            split = ",",
            description = "Which experiments: v1, v2, v3, v4, v4-netns, v8 (default: ${DEFAULT-VALUE}).")
    private List<String> experiments = List.of("v1", "v2", "v3");

    @Option(
            names = "--zipf",
            paramLabel = "Z",
            description = "V2: the Zipf exponent of the keys, >= 0 (default: ${DEFAULT-VALUE}, the paper's).")
    private double zipf = 0.84;

    @Option(
            names = "--key-domains",
            paramLabel = "N",
            split = ",",
            description = "V2: distinct keys, each >= 1 (default: 1000000,600000000,1000000000).")
    private List<Long> keyDomains = List.of(1_000_000L, 600_000_000L, 1_000_000_000L);

    @Option(
            names = "--messages",
            paramLabel = "M",
            description = "V4: messages each node sends, >= 1 (default: ${DEFAULT-VALUE}; the paper's 1680).")
    private int messages = 240;

    @Option(
            names = "--message-size",
            paramLabel = "SIZE",
            description = "V4: bytes per message, header included (default: ${DEFAULT-VALUE}, the paper's).")
    private String messageSize = "512K";

    @Option(
            names = "--receives-per-peer",
            paramLabel = "R",
            description = "V4: receives each multiplexer keeps posted per peer, the credit of a sender, in [1, 1024]"
                    + " (default: ${DEFAULT-VALUE}, the transport's).")
    private int receivesPerPeer = 8;

    @Option(
            names = "--posted-per-peer",
            paramLabel = "P",
            description = "V4: data messages a multiplexer keeps posted on a peer's queue pair at most, 0 for as"
                    + " credit allows (default: ${DEFAULT-VALUE}: the credit it returns to that peer, a WRITE on the"
                    + " same queue pair, then waits behind at most that many messages).")
    private int postedPerPeer = 2;

    @Option(
            names = "--port-bandwidth",
            paramLabel = "SIZE",
            description = "V4: bytes per second of each link and switch port in the contention model (default:"
                    + " ${DEFAULT-VALUE}).")
    private String portBandwidth = "64M";

    @Option(
            names = "--input-buffer",
            paramLabel = "SIZE",
            description = "V4: bytes each switch input port buffers in the contention model (default:"
                    + " ${DEFAULT-VALUE}).")
    private String inputBuffer = "64K";

    @Option(
            names = "--link-rate",
            paramLabel = "MBIT",
            description = "V4-netns: each namespace link's cap in megabits per second, both directions (default:"
                    + " ${DEFAULT-VALUE}).")
    private long linkRateMbit = 100;

    @Option(
            names = "--link-queue",
            paramLabel = "SIZE",
            description = "V4-netns: bytes each capped link queues before it drops (default: ${DEFAULT-VALUE}).")
    private String linkQueue = "128K";

    @Option(
            names = "--runs",
            paramLabel = "R",
            description = "V4: runs per schedule, node count and model, alternated; V8: timed runs per query; the"
                    + " median is shown (default: ${DEFAULT-VALUE}).")
    private int runs = 3;

    @Option(names = "--sf", paramLabel = "SF", split = ",", description = "V8: TPC-H scale factors (default: 0.1,1).")
    private List<Double> scaleFactors = List.of(0.1, 1.0);

    @Option(
            names = "--queries",
            paramLabel = "Q",
            split = ",",
            description = "V8: TPC-H query numbers (default: all 22).")
    private List<Integer> queries = List.copyOf(TpchQueries.implemented());

    @Option(
            names = "--tpch-nodes",
            paramLabel = "N",
            description = "V3 and V8: the TPC-H cluster's nodes, in [2, 8] (default: ${DEFAULT-VALUE}).")
    private int tpchNodes = 2;

    @Option(
            names = "--transport",
            paramLabel = "T",
            description = "V8: the exchange transport (default: ${DEFAULT-VALUE}).")
    private String transport = "hyper";

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).")
    private Path outputDirectory = Path.of("results");

    @Override
    public Integer call() throws InterruptedException {
        BenchRun run = new BenchRun(spec);
        List<String> chosen = run.options(() -> experiments());
        List<Integer> nodes = this.nodes != null
                ? this.nodes
                : chosen.equals(List.of("v4-netns")) ? List.of(3, 4) : List.of(2, 3, 4, 6, 8);
        HyperCountsBenchmark counts = run.options(
                () -> new HyperCountsBenchmark(nodes, threads, measuredThreads, outputDirectory, run.progress()));
        HyperSkewBenchmark skew = run.options(
                () -> new HyperSkewBenchmark(nodes, threads, zipf, keyDomains, outputDirectory, run.progress()));
        HyperScheduleBenchmark schedule = run.options(() -> new HyperScheduleBenchmark(
                nodes,
                messages,
                Math.toIntExact(ByteSizes.parse(messageSize)),
                receivesPerPeer,
                postedPerPeer,
                ByteSizes.parse(portBandwidth),
                ByteSizes.parse(inputBuffer),
                runs,
                outputDirectory,
                run.progress()));
        HyperNamespaceScheduleBenchmark namespaces = run.options(() -> new HyperNamespaceScheduleBenchmark(
                nodes,
                messages,
                Math.toIntExact(ByteSizes.parse(messageSize)),
                receivesPerPeer,
                linkRateMbit,
                Math.toIntExact(ByteSizes.parse(linkQueue)),
                runs,
                outputDirectory,
                run.progress()));
        HyperBroadcastRuleBenchmark rule = run.options(
                () -> new HyperBroadcastRuleBenchmark(nodes, threads, tpchNodes, measuredThreads, outputDirectory));
        HyperPlacementBenchmark placement = run.options(() -> new HyperPlacementBenchmark(
                scaleFactors, queries, tpchNodes, measuredThreads, transport, runs, outputDirectory, run.progress()));
        return run.run(out -> {
            List<Path> wrote = new ArrayList<>();
            if (chosen.contains("v1")) {
                HyperCountsBenchmark.Report report = counts.run();
                out.print(report.table());
                wrote.addAll(List.of(report.csvFile(), report.plotFile()));
            }
            if (chosen.contains("v2")) {
                HyperSkewBenchmark.Report report = skew.run();
                out.print(report.table());
                wrote.addAll(List.of(report.csvFile(), report.plotFile()));
            }
            if (chosen.contains("v3")) {
                HyperBroadcastRuleBenchmark.Report report = rule.run();
                out.print(report.table());
                wrote.addAll(List.of(report.csvFile(), report.plotFile()));
            }
            if (chosen.contains("v4")) {
                HyperScheduleBenchmark.Report report = schedule.run();
                out.print(report.table());
                wrote.addAll(List.of(report.csvFile(), report.plotFile()));
            }
            if (chosen.contains("v4-netns")) {
                HyperNamespaceScheduleBenchmark.Report report = namespaces.run();
                out.print(report.table());
                wrote.addAll(List.of(report.csvFile(), report.plotFile()));
            }
            if (chosen.contains("v8")) {
                HyperPlacementBenchmark.Report report = placement.run();
                out.print(report.table());
                wrote.addAll(List.of(report.csvFile(), report.plotFile()));
            }
            BenchRun.printWrote(out, wrote);
        });
    }

    private List<String> experiments() {
        List<String> chosen = new ArrayList<>();
        for (String experiment : experiments) {
            String name = experiment.strip().toLowerCase(java.util.Locale.ROOT);
            if (!List.of("v1", "v2", "v3", "v4", "v4-netns", "v8").contains(name)) {
                throw new IllegalArgumentException(
                        "unknown experiment '" + experiment + "': expected v1, v2, v3, v4, v4-netns, v8");
            }
            chosen.add(name);
        }
        return chosen;
    }
}
