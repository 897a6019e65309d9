package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Option parsing and help of {@code faro bench zerosided}; the benchmark itself is tested in the bench module. */
class BenchZeroSidedCommandTest {

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
                "--provider  | verbs | --provider must be shm, net or ucx: verbs",
                "--flows     | 0     | flows must be within [1, 64]",
                "--drivers   | 17    | drivers must be within [1, 16]",
                "--item-size | 12    | item size must be a multiple of 8 up to 1M",
                "--seconds   | 0     | seconds must be within (0, 600]",
                "--runs      | 0     | runs must be within [1, 100]",
                "--link      | tcp   | link must be shm or udp: tcp",
                "--experiments | v99 | unknown experiment v99: known are batching, latency, q1",
                "--endpoint-work | -1 | endpoint work must be within [0, 1000000]",
            })
    void badValuesAreOneLineUsageErrors(String option, String value, String message) {
        assertThat(run("bench", "zerosided", option, value)).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().findFirst().orElse("")).startsWith("faro bench zerosided: " + message);
        assertThat(err.toString()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void helpExplainsTheExperiment() {
        assertThat(run("bench", "zerosided", "--help")).isZero();
        assertThat(out.toString())
                .contains(
                        "zero-sided",
                        "switch",
                        "CPU-driven",
                        "Fig. 6",
                        "--flows",
                        "--drivers",
                        "--provider",
                        "--quick",
                        "--link",
                        "--experiments",
                        "--pin",
                        "--endpoint-work",
                        "Fig. 9",
                        "Fig. 15",
                        "Fig. 16");
    }
}
