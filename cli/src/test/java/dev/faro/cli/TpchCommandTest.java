package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Bad input to {@code faro tpch}: one clear line, exit 2, no stack trace, no cluster started. */
class TpchCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = FaroCommand.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
        "--queries   | 3,99      | faro tpch: TPC-H has queries 1 to 22, not 99",
        "--queries   | three     | faro tpch: 'three' is not a query number; give numbers like 3,4,10 or 'all'",
        "--sf        | 0         | faro tpch: the scale factor must be positive, got 0.0",
        "--sf        | -1        | faro tpch: the scale factor must be positive, got -1.0",
        "--sf        | lots      | faro tpch: Invalid value for option '--sf': 'lots' is not a double (see faro tpch --help)",
        "--nodes     | 0         | faro tpch: --nodes must be at least 1, got 0",
        "--nodes     | 65        | faro tpch: 65 nodes is more than a local cluster runs (at most 64)",
        "--design    | XYZ       | faro tpch: unknown endpoint design 'XYZ'; known: [SESQ/SR, MESQ/SR, SEMQ/SR, MEMQ/SR, SEMQ/RD, MEMQ/RD, SEMQ/WR, MEMQ/WR] or tcp",
        "--placement | hash      | faro tpch: unknown placement 'hash'; choose random or first-key",
        "--threads   | 0         | faro tpch: threads per node must be positive, got 0",
        "--worker-heap | 4 gigs  | faro tpch: --worker-heap takes a size like 512m or 4g, not '4 gigs'",
        "--format    | xml       | faro tpch: Invalid value for option '--format': expected one of [table, csv, json] (case-sensitive) but was 'xml' (see faro tpch --help)",
    })
    void badValuesAreOneLineErrors(String option, String value, String message) {
        assertThat(run("tpch", option, value)).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList()).containsExactly(message);
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void moreNodesThanTheMemoryHoldsIsRefused() {
        assertThat(run("tpch", "--nodes", "40", "--sf", "100")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).startsWith("faro tpch: 40 nodes with").contains("this machine has")
                .doesNotContain("\tat ");
    }

    @Test
    void helpExplainsTheDefaults() {
        assertThat(run("tpch", "--help")).isZero();
        assertThat(out.toString()).contains("--nodes", "--sf", "--queries", "--design", "--format", "MESQ/SR");
    }
}
