package dev.faro.cli;

import dev.faro.bench.locks.LocksBenchmark;
import dev.faro.bench.locks.LocksBenchmarkConfig;
import dev.faro.bench.locks.LocksReport;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.txn.lock.DeadlockPolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code faro bench locks}: wiring only. Parses the options into a {@link LocksBenchmarkConfig}, runs
 * {@link LocksBenchmark} on local worker JVMs (or, with {@code --listen}, on workers that join) and prints its tables.
 * Bad values are parameter errors (exit 2, one line plus usage); a run-time failure (a worker died) prints one line and
 * exits 1.
 */
@Command(
        name = "locks",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "ETH19 (Barthels' thesis, chapter 5): a distributed lock manager with strict 2PL and 2PC over the fabric."
                    + " Each worker JVM is a node with --servers lock servers and --agents transaction agents; agents"
                    + " send lock requests with WRITE_WITH_IMMEDIATE into the servers' mailboxes, and 2PC votes are one"
                    + " remote FETCH_ADD on the agent's vote word.",
            "Experiments (--experiments): remote = synthetic workload (10 locks/tx, random modes) against the"
                    + " remote-lock probability, with the model of Eqs. 5.1-5.4 fed by micro-benchmarks of the same run"
                    + " (local and remote lock, vote, clean-up; Table 5.1);"
                    + " isolation = TPC-C lock sets, serializable against read committed; nodes = TPC-C against node"
                    + " count; roles = the split of a node's threads between servers and agents. A latency breakdown"
                    + " (communication, queue, processing, vote, clean-up) follows, next to the round trip through the"
                    + " same mailboxes measured in the same run.",
            "Every table has the thesis's numbers in 'paper' columns. Writes locks-<experiment>.csv, locks-remote.png"
                    + " and locks.json under --out."
        })
final class BenchLocksCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterOptions cluster;

    @Option(
            names = "--experiments",
            paramLabel = "E",
            split = ",",
            description = "Which experiments: remote, isolation, nodes, roles (default: these four), contention (only"
                    + " when named: hot locks, so the breakdown shows queue time).")
    private List<String> experiments;

    @Option(
            names = "--nodes",
            paramLabel = "N",
            description = "Worker JVMs (nodes); 'nodes' sweeps 1, 2, 4, ... up to it (default: 2; with --listen:"
                    + " --workers).")
    private Integer nodes;

    @Option(names = "--servers", paramLabel = "N", description = "Lock servers per node (default: 1).")
    private Integer servers;

    @Option(names = "--agents", paramLabel = "N", description = "Transaction agents per node (default: 2).")
    private Integer agents;

    @Option(
            names = "--remote",
            paramLabel = "PERCENT",
            split = ",",
            description = "Remote-lock probabilities of the synthetic workload, in percent (default: 0,1,5,10,25,50;"
                    + " --quick: 0,10,50).")
    private List<Double> remote;

    @Option(
            names = "--policy",
            paramLabel = "P",
            description = "Deadlock handling: timeout (the thesis's bounded wait), no-wait or wait-die (default:"
                    + " timeout).")
    private String policy;

    @Option(
            names = "--seconds",
            paramLabel = "S",
            description = "Counted load per point, after a quarter as much warm-up (default: 2; --quick: 0.3).")
    private Double seconds;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description = "Runs per point; the median is kept (default: 3; --quick: 1).")
    private Integer runs;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).")
    private Path outputDirectory = LocksBenchmarkConfig.DEFAULT_OUTPUT_DIRECTORY;

    @Option(names = "--quick", description = "Three remote ratios, short points, one run: a smoke test.")
    private boolean quick;

    @Option(
            names = "--no-pin",
            description = "Leave the local workers' lock servers and agents wherever the operating system puts them"
                    + " (default: each node's threads pinned to its share of the host's CPUs, so that every point"
                    + " sees the same placement; never with --listen).")
    private boolean noPin;

    @Override
    public Integer call() throws InterruptedException {
        BenchRun run = new BenchRun(spec);
        LocksBenchmarkConfig config = config();
        ClusterStart joined = run.joined(cluster, config.provider(), "--nodes", config.nodes());
        return run.run(out -> {
            LocksReport report = new LocksBenchmark(config, joined, run.progress()).run();
            out.print(report.text());
            BenchRun.printWrote(out, report.files());
        });
    }

    /** The options over the defaults; invalid values are usage errors. */
    LocksBenchmarkConfig config() {
        try {
            LocksBenchmarkConfig config = quick ? LocksBenchmarkConfig.quick() : LocksBenchmarkConfig.defaults();
            String provider = cluster.listening() ? cluster.provider() : cluster.localProvider();
            int nodeCount = nodes != null ? nodes : cluster.listening() ? cluster.workers() : config.nodes();
            config = config.withProvider(provider)
                    .withOutputDirectory(outputDirectory)
                    .withPinned(!noPin)
                    .withLayout(
                            nodeCount,
                            servers != null ? servers : config.serversPerNode(),
                            agents != null ? agents : config.agentsPerNode());
            if (experiments != null) {
                config = config.withExperiments(experiments);
            }
            if (remote != null) {
                config = config.withRemote(remote);
            } else if (nodeCount < 2) {
                config = config.withRemote(List.of(0.0));
            }
            if (policy != null) {
                config = config.withPolicy(policy(policy));
            }
            if (seconds != null || runs != null) {
                if (seconds != null && !(seconds >= 0.01 && seconds <= 3600)) {
                    throw new IllegalArgumentException("--seconds must be in [0.01, 3600]: " + seconds);
                }
                long duration = seconds != null ? Math.round(seconds * 1000) : config.durationMs();
                config = config.withTiming(duration / 4, duration, runs != null ? runs : config.runs());
            }
            return config;
        } catch (IllegalArgumentException e) {
            throw BenchRun.usageError(spec, e);
        }
    }

    private static DeadlockPolicy policy(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "timeout" -> DeadlockPolicy.TIMEOUT;
            case "no-wait" -> DeadlockPolicy.NO_WAIT;
            case "wait-die" -> DeadlockPolicy.WAIT_DIE;
            default ->
                throw new IllegalArgumentException("--policy must be timeout, no-wait or wait-die, not '" + name + "'");
        };
    }
}
