package dev.faro.cli;

import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.cluster.tpch.QueryOutcome;
import dev.faro.cluster.tpch.TpchSession;
import dev.faro.cluster.tpch.TpchSettings;
import dev.faro.engine.tpch.Placement;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.shm.ShmFabricProvider;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code faro tpch}: starts a local cluster (worker JVMs over the {@code shm} fabric), or with {@code --listen} waits
 * for workers started on other hosts ({@link ClusterOptions}), generates TPC-H on every node
 * and runs the chosen queries, printing each answer and its figures. Bad values are one-line errors (exit 2) without
 * the usage; a failed query prints one line and exits 1. Wiring only: the work is in {@link TpchSession}.
 */
@Command(
        name = "tpch",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Runs TPC-H queries on a local cluster: one coordinator (this process) and N worker JVMs over the shm"
                    + " fabric; or, with --listen ADDR:PORT --workers N, on workers started on other hosts (faro worker"
                    + " --join ADDR:PORT) over the net or ucx fabric. Every node generates its share of the database"
                    + " (TODS19 placement: every tuple on a pseudo-random node, NATION and REGION replicated); the"
                    + " queries' exchanges are the shuffle"
                    + " designs' SHUFFLE/RECEIVE operators.",
            "Prints each query's first rows, time, bytes shuffled and shuffle throughput per node (bytes received per"
                    + " node / response time). With no options: 2 nodes, SF 1, Q3, Q4 and Q10 with MESQ/SR.",
            ""
        })
final class TpchCommand implements Callable<Integer> {

    /** Exit code when the cluster or a query fails at run time. */
    static final int FAILED = 1;

    @Spec
    private CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", description = "Worker JVMs started on this host (default: 2).")
    private Integer nodes;

    @Mixin
    private ClusterOptions cluster;

    @Option(
            names = "--sf",
            paramLabel = "S",
            description = "TPC-H scale factor, e.g. 0.1, 1, 3 (default:"
                    + " ${DEFAULT-VALUE}; SF 1 is about 1.2 GB in memory).")
    private double scaleFactor = 1;

    @Option(
            names = "--queries",
            paramLabel = "Q",
            split = ",",
            description = "Query numbers, or 'all' for every implemented one (default: 3,4,10).")
    private List<String> queries = List.of("3", "4", "10");

    @Option(
            names = {"--transport", "--design"},
            paramLabel = "T",
            description = "Exchange transport: a shuffle design by paper name"
                    + " (SESQ/SR, MESQ/SR, SEMQ/SR, MEMQ/SR, SEMQ/RD, MEMQ/RD, SEMQ/WR, MEMQ/WR; default: MESQ/SR, the best"
                    + " on shm; MEMQ/SR on ucx, which has RC queue pairs only), 'tcp' for the plain TCP socket"
                    + " baseline, or a transport another module registers (an unknown name lists them).")
    private String design;

    @Option(
            names = "--placement",
            paramLabel = "P",
            description = "random (TODS19) or first-key (every table"
                    + " partitioned on its first column, VLDB16) (default: random).")
    private String placement = Placement.RANDOM.optionName();

    @Option(names = "--threads", paramLabel = "N", description = "Engine threads per node, at most 32 (default: 2).")
    private int threads = 2;

    @Option(
            names = "--format",
            paramLabel = "F",
            description = "table (first rows and figures), csv or json (the"
                    + " full results on standard output, progress on standard error) (default: ${DEFAULT-VALUE}).")
    private TpchOutput.Format format = TpchOutput.Format.table;

    @Option(
            names = "--rows",
            paramLabel = "N",
            description = "Rows of each answer shown in table format (default:" + " ${DEFAULT-VALUE}).")
    private int rows = 10;

    @Option(
            names = "--worker-heap",
            paramLabel = "SIZE",
            description = "Heap of each worker JVM, e.g. 4g (default:"
                    + " 512 MiB + 2.5 GiB x SF / nodes; at least 320 MiB + 1.25 GiB x SF / nodes).")
    private String workerHeap;

    @Option(
            names = "--shm-directory",
            paramLabel = "DIR",
            description = "Where the shm fabric keeps its shared"
                    + " memory files (default: /dev/shm); a larger tmpfs when /dev/shm is small, as in containers.")
    private Path shmDirectory;

    @Option(
            names = "--verbose",
            description = "Show the workers' standard output and stack traces (by default a"
                    + " worker's stack trace goes to a file under "
                    + "${sys:java.io.tmpdir}/faro-logs, and one line says"
                    + " which).")
    private boolean verbose;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TpchSettings settings;
        ClusterStart start;
        List<Integer> numbers;
        try {
            numbers = TpchOptions.queries(queries);
            double sf = TpchOptions.scaleFactor(scaleFactor);
            TpchOptions.threads(threads);
            if (rows < 0) {
                throw new IllegalArgumentException("--rows must not be negative, got " + rows);
            }
            settings = TpchOptions.exchange(
                    new TpchSettings(sf, Placement.parse(placement), threads, EndpointDesign.MESQ_SR),
                    design,
                    cluster.provider());
            start = cluster.listening() ? joining(err) : local(sf);
        } catch (IllegalArgumentException e) {
            err.println("faro tpch: " + e.getMessage());
            err.flush();
            return CommandLine.ExitCode.USAGE;
        }
        TpchOutput output = new TpchOutput(format, rows, out);
        int nodeCount = start.config().nodes();
        try (TpchSession session = TpchSession.start(start, settings, line -> progress(err, line))) {
            for (int number : numbers) {
                progress(err, "running Q" + number + " (" + settings.transport() + ")");
                QueryOutcome outcome = session.run(number);
                output.add(outcome);
                if (out.checkError()) {
                    return FAILED; // standard output is gone (a full disk, a closed pipe); FaroCommand says so
                }
            }
            output.finish(settings, nodeCount);
            return CommandLine.ExitCode.OK;
        } catch (FaroException | IllegalStateException e) {
            UserStop.printFailure(err, "faro tpch: " + e.getMessage());
            return FAILED;
        }
    }

    /** A local cluster of {@code --nodes} worker JVMs, checked against this host's memory. */
    private ClusterStart local(double sf) {
        int count = nodes == null ? 2 : nodes;
        String provider = cluster.localProvider();
        long heapMiB = workerHeap != null ? TpchOptions.heapMiB(workerHeap) : TpchSession.workerHeapMiB(count, sf);
        TpchOptions.checkFits(count, sf, heapMiB);
        ClusterConfig config = ClusterConfig.local(count)
                .withProvider(provider)
                .withWorkerHeap(heapMiB + "m")
                .withForwardWorkerOutput(verbose);
        if (shmDirectory != null) {
            config = config.withProviderOption(
                    ShmFabricProvider.DIRECTORY_OPTION,
                    shmDirectory.toAbsolutePath().toString());
        }
        return ClusterStart.local(config);
    }

    /** Workers started elsewhere ({@code --listen}); the options that size or place local workers do not apply. */
    private ClusterStart joining(PrintWriter err) {
        TpchOptions.refuseWithListen("--nodes", nodes, "--workers");
        TpchOptions.refuseWithListen("--worker-heap", workerHeap, "FARO_JAVA_OPTS=-Xmx... on each worker host");
        TpchOptions.refuseWithListen("--shm-directory", shmDirectory, "--provider net or ucx");
        return cluster.joining(line -> progress(err, line));
    }

    private static void progress(PrintWriter err, String line) {
        err.println(line);
        err.flush();
    }
}
