package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Option parsing and help of {@code faro bench hyper}; the benchmark itself is tested in the bench module. */
class BenchHyperCommandTest {

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
                "--nodes            | 9 | node counts must be in [2, 8]: 9",
                "--threads          | 0 | threads must be positive",
                "--measured-threads | 9 | threads must be positive and measured threads in [1, 8]",
                "--experiments      | v9 | unknown experiment 'v9': expected v1, v2, v3, v4, v4-netns, v8",
                "--sf               | 0 | scale factors must be positive: [0.0]",
                "--tpch-nodes       | 1 | V8 needs 2 to 8 nodes, got 1",
                "--queries          | 99 | queries must be among",
                "--transport        | pigeon | unknown exchange transport",
                "--messages         | 0 | messages per node, runs and the port bandwidth must be positive",
                "--runs             | 0 | messages per node, runs and the port bandwidth must be positive",
                "--port-bandwidth   | fast | '''fast'' is not a byte size'",
                "--message-size     | 10 | messageBytes must be in [96, 64 MiB]",
                "--zipf             | -1 | the Zipf exponent must be finite and >= 0",
                "--key-domains      | 0 | key domains must be positive: 0",
                "--link-rate        | 0 | messages per node, runs and the link rate must be positive",
                "--link-queue       | 1K | messages per node, runs and the link rate must be positive and the queue at"
                        + " least 1500 bytes",
            })
    void badValuesAreOneLineUsageErrors(String option, String value, String message) {
        assertThat(run("bench", "hyper", option, value)).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().findFirst().orElse("")).startsWith("faro bench hyper: " + message);
        assertThat(err.toString()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void helpExplainsTheExperiment() {
        assertThat(run("bench", "hyper", "--help")).isZero();
        assertThat(out.toString())
                .contains(
                        "VLDB16",
                        "57,560",
                        "multiplexer",
                        "--nodes",
                        "--threads",
                        "--out",
                        "V2",
                        "Zipf",
                        "--key-domains",
                        "V4",
                        "--port-bandwidth",
                        "round-robin",
                        "V3",
                        "n*t-1",
                        "V8",
                        "first-key",
                        "--sf");
    }
}
