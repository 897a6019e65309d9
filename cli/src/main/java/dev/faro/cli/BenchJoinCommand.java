package dev.faro.cli;

import dev.faro.bench.ByteSizes;
import dev.faro.bench.join.JoinBenchConfig;
import dev.faro.bench.join.JoinBenchReport;
import dev.faro.bench.join.JoinBenchmark;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.cluster.coordinator.Coordinator;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code faro bench join}: wiring only. Parses the options into a {@link JoinBenchConfig}, runs {@link JoinBenchmark}
 * on local worker JVMs (or, with {@code --listen ADDR:PORT --workers N}, on workers that join from elsewhere) and
 * prints its report. Bad values are parameter errors (exit 2, one line plus usage); a run-time failure (a worker
 * died) prints one line and exits 1.
 */
@Command(
        name = "join",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "ETH19 (Barthels): the distributed radix hash join and sort-merge join over one-sided RDMA WRITE on worker"
                    + " JVMs, the radix join next to a"
                    + " single-process radix join on the same total cores (node 0, N x T threads, the same data) and"
                    + " to the thesis's performance model (Eqs. 3.1-3.11) fed by per-core rates and the fabric"
                    + " bandwidth measured in the same run.",
            "Prints throughput (|R|+|S| tuples/s), the thesis's phase breakdown (histogram, window allocation, network"
                    + " partitioning split into compute/put/wait, local partitioning, build-probe, imbalance), the"
                    + " per-core rates and a Table 4.2 analogue with the thesis's figures beside ours; writes join.csv,"
                    + " join.json and join.png under --out (and join-crossover.png with two or more non-zero"
                    + " --bandwidth-cap values).",
            "Every result is checked against the single-process join's (count and checksum of matched rid pairs)."
        })
final class BenchJoinCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterOptions cluster;

    @Option(names = "--nodes", paramLabel = "N", split = ",", description = "Node counts (default: 2).")
    private List<Integer> nodes;

    @Option(
            names = "--threads",
            paramLabel = "T",
            split = ",",
            description = "Threads per node (default: 1,2; --quick: 1).")
    private List<Integer> threads;

    @Option(
            names = "--workloads",
            paramLabel = "W",
            split = ",",
            description = "Workloads: 1:1, 1:2, 1:4, 1:8 (uniform unique inner keys, N matches each), sel0.5 (1:2, half"
                    + " of the outer tuples unmatched), zipf1.05, zipf1.20 (1:4, Zipf outer keys, partitions assigned"
                    + " sorted by size) (default: 1:1).")
    private List<String> workloads;

    @Option(
            names = "--tuples",
            paramLabel = "N",
            description = "Inner tuples per node (weak scaling; the outer relation is the workload's multiple), with"
                    + " K/M suffixes (default: 2M; --quick: 200K).")
    private String tuples;

    @Option(
            names = "--buffers",
            paramLabel = "K",
            split = ",",
            description = "Private RDMA buffers per thread and remote partition (k); 1 serialises partitioning and"
                    + " transfer, 2 is the thesis's double buffering (default: 1,2; --quick: 2).")
    private List<Integer> buffers;

    @Option(
            names = "--buffer-size",
            paramLabel = "SIZE",
            description = "Bytes of one buffer, with K/M suffixes (default: 64K, the thesis's).")
    private String bufferSize;

    @Option(
            names = "--bits",
            paramLabel = "B",
            description = "Radix bits of the network partitioning pass, fan-out 2^B (default: 8; --quick: 6).")
    private Integer bits;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description =
                    "Timed runs per point, after two warm-up runs (one with --quick); tables show the median (default: 3).")
    private Integer runs;

    @Option(
            names = "--bandwidth-cap",
            paramLabel = "B",
            split = ",",
            description = "Emulated injection bandwidth per node in bytes/s, with K/M/G suffixes, several for the"
                    + " compute- vs network-bound crossover (a put completes only when a link of that speed would"
                    + " have sent it); 0: the fabric's own (default: 0).")
    private List<String> bandwidthCaps;

    @Option(
            names = "--scaling",
            paramLabel = "S",
            split = ",",
            description =
                    "weak: --tuples R tuples per node at every node count; strong: a fixed total of --tuples x the"
                            + " largest --nodes R tuples split over each node count (speed-up and efficiency table); or both"
                            + " (default: weak).")
    private List<String> scalings;

    @Option(
            names = "--no-sort-merge",
            description = "Leave out the sort-merge join (by default it runs at every point, beside the radix join).")
    private boolean noSortMerge;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).")
    private Path outputDirectory = JoinBenchConfig.DEFAULT_OUTPUT_DIRECTORY;

    @Option(names = "--quick", description = "Small relations, one point, one run: a smoke test of seconds.")
    private boolean quick;

    @Override
    public Integer call() throws InterruptedException {
        BenchRun run = new BenchRun(spec);
        Consumer<String> progress = run.progress();
        String provider = run.options(() -> cluster.listening() ? cluster.provider() : cluster.localProvider());
        JoinBenchConfig config = run.options(() -> config(provider));
        ClusterStart joined =
                run.joined(cluster, provider, "--nodes", config.nodeCounts().getLast());
        return run.run(out -> {
            JoinBenchmark benchmark = new JoinBenchmark(config, progress);
            JoinBenchReport report;
            if (joined == null) {
                report = benchmark.run();
            } else {
                try (Coordinator coordinator = joined.start(progress)) {
                    report = benchmark.run(coordinator);
                }
            }
            out.print(report.text());
            BenchRun.printWrote(out, List.of(report.csvFile(), report.metadataFile(), report.plotFile()));
        });
    }

    private JoinBenchConfig config(String provider) {
        JoinBenchConfig base = quick ? JoinBenchConfig.quick() : JoinBenchConfig.defaults();
        if (scalings != null) {
            base = base.withScalings(scalings);
        }
        return base.with(
                provider,
                nodes,
                threads,
                workloads,
                tuples == null ? null : ByteSizes.parse(tuples),
                buffers,
                bufferSize == null ? null : Math.toIntExact(ByteSizes.parse(bufferSize)),
                bits,
                runs,
                bandwidthCaps == null
                        ? null
                        : bandwidthCaps.stream().map(ByteSizes::parse).toList(),
                noSortMerge ? Boolean.FALSE : null,
                outputDirectory);
    }
}
