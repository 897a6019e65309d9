package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Option parsing of {@code faro bench join}; the benchmark itself is tested in the bench module. */
class BenchJoinCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = FaroCommand.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--nodes | 0 | --nodes must be in [1, 16]: [0]",
                "--threads | 64 | --threads must be in [1, 32]: [64]",
                "--workloads | 1:3 | unknown workload '1:3'; known: 1:1, 1:2, 1:4, 1:8, sel0.5, zipf1.05, zipf1.20",
                "--buffers | 0 | --buffers must be in [1, 16]: [0]",
                "--buffer-size | 100 | --buffer-size must be a multiple of 16 in [1K, 16M]: 100",
                "--bits | 20 | --bits must be in [1, 14]: 20",
                "--tuples | 10 | --tuples must be in [1000, 2^30]: 10",
                "--bandwidth-cap | 5 | --bandwidth-cap values must be 0 (none) or at least 1M bytes/s: [5]",
                "--provider | verbs | --provider must be one of shm, net, ucx, not 'verbs'",
                "--workers | 2 | --workers goes with --listen ADDR:PORT",
            })
    void badValuesAreOneLineUsageErrorsWithoutAStackTrace(String option, String value, String message) {
        assertThat(run("bench", "join", option, value)).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().findFirst().orElse("")).startsWith("faro bench join: " + message);
        assertThat(err.toString()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void helpExplainsTheCommand() {
        assertThat(run("bench", "join", "--help")).isZero();
        assertThat(out.toString())
                .contains("distributed radix hash join and sort-merge join")
                .contains("--bandwidth-cap")
                .contains("--buffers")
                .contains("Table 4.2");
    }
}
