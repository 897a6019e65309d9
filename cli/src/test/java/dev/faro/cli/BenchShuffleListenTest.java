package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.bench.experiment.ExperimentSettings;
import dev.faro.bench.shuffle.ShuffleThroughputConfig;
import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * The cluster options of {@code faro bench shuffle throughput} and {@code e1} ... {@code e8} ({@code --listen ADDR:PORT
 * --workers N} and the rest, {@link ClusterOptions} through {@link ShuffleWorkers}): bad combinations are one line and
 * exit 2 before anything listens or starts, and the joined workers fix the node counts. The run itself is {@code
 * BenchShuffleListenIT}.
 */
class BenchShuffleListenTest {

    @TempDir
    static Path directory;

    private static Path secretFile;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeAll
    static void writeSecret() throws Exception {
        secretFile = directory.resolve("secret");
        ClusterSecret.generate().writeFile(secretFile);
    }

    private int run(String... args) {
        CommandLine commandLine = FaroCommand.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    private static <T> T command(String... args) {
        CommandLine.ParseResult parsed = FaroCommand.newCommandLine().parseArgs(args);
        return parsed.subcommand()
                .subcommand()
                .subcommand()
                .commandSpec()
                .commandLine()
                .getCommand();
    }

    private static ExperimentSettings experiment(String... args) {
        BenchExperimentCommand command = command(args);
        return command.settings(command.driver());
    }

    private static ShuffleThroughputConfig throughput(String... args) {
        BenchShuffleCommand.Throughput command = command(args);
        return command.config();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "e4         | --listen 127.0.0.1:0                                | --listen needs --workers N: how many"
                        + " workers to wait for",
                "e4         | --listen 127.0.0.1:0 --workers 2 --nodes 2,4        | --nodes 4 is more than the 2 workers"
                        + " that join (--workers 2); with --listen every node is a joined worker",
                "throughput | --listen 127.0.0.1:0 --workers 3 --nodes 4          | --nodes 4 is more than the 3 workers"
                        + " that join (--workers 3); with --listen every node is a joined worker",
                "e1         | --listen 127.0.0.1:0 --workers 0                    | --workers must be at least 1, got 0",
                "throughput | --workers 2                                         | --workers goes with --listen"
                        + " ADDR:PORT (workers started elsewhere); a local cluster's size is --nodes",
                "e4         | --join-timeout 5s                                   | --join-timeout goes with --listen"
                        + " ADDR:PORT (workers started elsewhere); a local cluster's size is --nodes",
                "e4         | --provider net                                      | the local workers of bench shuffle"
                        + " use shm; --provider net or ucx goes with --listen ADDR:PORT --workers N (workers started"
                        + " with faro worker --join)",
                "e4         | --listen 127.0.0.1:0 --workers 2 --provider shm     | --provider shm works on one host"
                        + " only; workers joining from other hosts use net or ucx",
                "e4         | --listen 127.0.0.1:0 --workers 2 --provider rdma    | --provider must be one of shm, net,"
                        + " ucx, not 'rdma'",
                "e6         | --listen 0.0.0.0:0 --workers 2                      | --listen 0.0.0.0:0 lets other hosts"
                        + " join, so the workers must prove a secret: give --secret-file FILE or set"
                        + " $FARO_CLUSTER_SECRET",
                "throughput | --listen 127.0.0.1:99999 --workers 2                | --listen wants ADDR:PORT with a port"
                        + " from 0 to 65535, got '127.0.0.1:99999'",
                "e8         | --listen 127.0.0.1:0 --workers 2 --provider ucx SECRET | e8 has nothing to run on these"
                        + " workers (MESQ/SR needs UD queue pairs, which the ucx fabric does not have): use --provider"
                        + " net",
                "throughput | --listen 127.0.0.1:0 --workers 2 --provider ucx --designs MEMQ/SR,MESQ/SR | MESQ/SR"
                        + " needs UD queue pairs, which the ucx fabric does not have: use an RC design or --provider"
                        + " net",
            })
    void badCombinationsAreOneLineUsageErrors(String subcommand, String options, String message) {
        List<String> args = new ArrayList<>(List.of("bench", "shuffle", subcommand));
        for (String option : options.strip().split(" +")) {
            if (option.equals("SECRET")) {
                args.addAll(List.of("--secret-file", secretFile.toString()));
            } else {
                args.add(option);
            }
        }
        assertThat(run(args.toArray(String[]::new))).isEqualTo(CommandLine.ExitCode.USAGE);
        String name = "faro bench shuffle " + subcommand;
        assertThat(err.toString().lines().toList())
                .containsExactly(name + ": " + message + " (see " + name + " --help)");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void theSecretIsNeverTakenFromTheCommandLine() {
        assertThat(run("bench", "shuffle", "e4", "--listen", "127.0.0.1:0", "--workers", "2", "--secret", "hunter2"))
                .isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).doesNotContain("hunter2").contains("the secret never goes on the command line");
        assertThat(err.toString().lines()).hasSize(1);
    }

    @Test
    void theJoinedWorkersFixTheNodeCounts() {
        assertThat(experiment("bench", "shuffle", "e4", "--listen", "127.0.0.1:0", "--workers", "2")
                        .nodeCounts())
                .containsExactly(2);
        assertThat(experiment("bench", "shuffle", "e4", "--listen", "127.0.0.1:0", "--workers", "8")
                        .nodeCounts())
                .containsExactly(2, 4, 8);
        assertThat(experiment("bench", "shuffle", "e1", "--listen", "127.0.0.1:0", "--workers", "1")
                        .nodeCounts())
                .containsExactly(1);
        assertThat(experiment("bench", "shuffle", "e4", "--listen", "7000", "--workers", "4", "--nodes", "3")
                        .nodeCounts())
                .containsExactly(3);
        assertThat(throughput("bench", "shuffle", "throughput", "--listen", "127.0.0.1:0", "--workers", "3")
                        .nodeCounts())
                .containsExactly(2, 3);
        assertThat(experiment("bench", "shuffle", "e4").nodeCounts())
                .as("a local cluster keeps its defaults")
                .containsExactly(2, 4);
    }

    @Test
    void onUcxEveryDesignMeansTheRcDesigns() {
        List<EndpointDesign> rc = Arrays.stream(EndpointDesign.values())
                .filter(design -> !design.implementation().needsDatagrams())
                .filter(ShuffleThroughputConfig.implementedDesigns()::contains)
                .toList();
        assertThat(throughput(
                                "bench",
                                "shuffle",
                                "throughput",
                                "--listen",
                                "127.0.0.1:0",
                                "--workers",
                                "2",
                                "--provider",
                                "ucx")
                        .designs())
                .isEqualTo(rc)
                .doesNotContain(EndpointDesign.SESQ_SR, EndpointDesign.MESQ_SR);
        assertThat(throughput(
                                "bench",
                                "shuffle",
                                "throughput",
                                "--listen",
                                "127.0.0.1:0",
                                "--workers",
                                "2",
                                "--provider",
                                "ucx",
                                "--designs",
                                "all")
                        .designs())
                .isEqualTo(rc);
    }
}
