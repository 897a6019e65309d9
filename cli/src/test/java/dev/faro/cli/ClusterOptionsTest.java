package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * Bad combinations of the options that put the workers on other hosts ({@code --listen}, {@code --workers},
 * {@code --provider}, {@code --join-timeout}, {@code --secret-file}): one clear line, exit 2, nothing started. The
 * refusal of a non-loopback listener without a secret and the join timeout run as real processes in
 * {@code ListenIT}.
 */
class ClusterOptionsTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = FaroCommand.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "tpch --workers 2 | faro tpch: --workers goes with --listen ADDR:PORT (workers started elsewhere); a local"
                        + " cluster's size is --nodes",
                "tpch --join-timeout 5s | faro tpch: --join-timeout goes with --listen ADDR:PORT (workers started"
                        + " elsewhere); a local cluster's size is --nodes",
                "tpch --provider rdma | faro tpch: --provider must be one of shm, net, ucx, not 'rdma'",
                "tpch --listen 7000 | faro tpch: --listen needs --workers N: how many workers to wait for",
                "tpch --listen 7000 --workers 0 | faro tpch: --workers must be at least 1, got 0",
                "tpch --listen 7000 --workers 2 --provider shm | faro tpch: --provider shm works on one host only; workers"
                        + " joining from other hosts use net or ucx",
                "tpch --listen 127.0.0.1:70000 --workers 2 | faro tpch: --listen wants ADDR:PORT with a port from 0 to"
                        + " 65535, got '127.0.0.1:70000'",
                "tpch --listen 127.0.0.1:x --workers 2 | faro tpch: --listen wants ADDR:PORT with a port from 0 to 65535,"
                        + " got '127.0.0.1:x'",
                "tpch --listen 7000 --workers 2 --join-timeout soon | faro tpch: --join-timeout takes a positive time like"
                        + " 120s, 5m or 500ms, not 'soon'",
                "tpch --listen 7000 --workers 2 --join-timeout 0s | faro tpch: --join-timeout takes a positive time like"
                        + " 120s, 5m or 500ms, not '0s'",
                "tpch --listen 7000 --workers 2 --replace-timeout soon | faro tpch: --replace-timeout takes a positive time"
                        + " like 120s, 5m or 500ms, not 'soon'",
                "tpch --replace-timeout 5s | faro tpch: --replace-timeout goes with --listen ADDR:PORT (workers started"
                        + " elsewhere); a local cluster's size is --nodes",
                "tpch --listen 7000 --workers 2 --nodes 3 | faro tpch: --nodes is for workers started on this host; with"
                        + " --listen use --workers",
                "tpch --listen 7000 --workers 2 --worker-heap 4g | faro tpch: --worker-heap is for workers started on this"
                        + " host; with --listen use FARO_JAVA_OPTS=-Xmx... on each worker host",
                "tpch --listen 7000 --workers 2 --secret-file /nonexistent/secret | faro tpch: cannot read the secret file"
                        + " /nonexistent/secret: no such file",
                "bench tpch --listen 7000 --workers 2 --nodes 2 | faro bench tpch: --nodes is for workers started on this"
                        + " host; with --listen use --workers (see faro bench tpch --help)",
                "tpch --provider ucx --design MESQ/SR | faro tpch: MESQ/SR needs UD queue pairs, which the ucx fabric does"
                        + " not offer; choose an RC design (SEMQ/SR, MEMQ/SR, SEMQ/RD, MEMQ/RD, SEMQ/WR, MEMQ/WR) or tcp",
                "bench tpch --listen 7000 --workers 2 --provider ucx | faro bench tpch: transport MESQ/SR needs UD queue"
                        + " pairs, and the ucx fabric has none: name RC designs or tcp with --transports, or use --provider"
                        + " net (see faro bench tpch --help)",
                "bench tpch --workers 2 | faro bench tpch: --workers goes with --listen ADDR:PORT (workers started"
                        + " elsewhere); a local cluster's size is --nodes (see faro bench tpch --help)",
                "bench tpch --listen 7000 --workers 2 --profile | faro bench tpch: --profile is for workers started on"
                        + " this host; with --listen use FARO_JAVA_OPTS=-XX:StartFlightRecording=filename=worker.jfr on"
                        + " each worker host (see faro bench tpch --help)",
                "bench join --listen 7000 --workers 2 --nodes 2,4 | faro bench join: --nodes 4 is more than the 2"
                        + " workers that join (--workers 2); with --listen every node is a joined worker (see faro bench"
                        + " join --help)",
                "bench locks --listen 7000 --workers 2 --nodes 3 | faro bench locks: --nodes 3 is more than the 2"
                        + " workers that join (--workers 2); with --listen every node is a joined worker (see faro bench"
                        + " locks --help)",
                "bench middleware --listen 7000 --workers 4 --processes 4,8 | faro bench middleware: --processes 8 is"
                        + " more than the 4 workers that join (--workers 4); with --listen every node is a joined worker"
                        + " (see faro bench middleware --help)",
            })
    void badCombinationsAreOneLineErrors(String commandLine, String message) {
        assertThat(run(commandLine.split(" "))).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList()).containsExactly(message);
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void theSecretIsNeverTakenFromTheCommandLineNorEchoed() {
        assertThat(run("tpch", "--listen", "7000", "--workers", "2", "--secret", "hunter2"))
                .isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList())
                .singleElement()
                .asString()
                .startsWith("faro tpch: the secret never goes on the command line")
                .doesNotContain("hunter2");
    }

    @Test
    void joinTimeoutsTakeAUnit() {
        assertThat(ClusterOptions.duration("--join-timeout", "120s")).isEqualTo(Duration.ofSeconds(120));
        assertThat(ClusterOptions.duration("--join-timeout", "90")).isEqualTo(Duration.ofSeconds(90));
        assertThat(ClusterOptions.duration("--join-timeout", "5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(ClusterOptions.duration("--join-timeout", "1h")).isEqualTo(Duration.ofHours(1));
        assertThat(ClusterOptions.duration("--join-timeout", " 500MS ")).isEqualTo(Duration.ofMillis(500));
        assertThatThrownBy(() -> ClusterOptions.duration("--join-timeout", "-1s"))
                .hasMessageContaining("positive time");
    }
}
