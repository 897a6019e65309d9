package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    @CsvSource(
            delimiter = '|',
            value = {
                "--queries   | 3,99      | faro tpch: TPC-H has queries 1 to 22, not 99",
                "--queries   | three     | faro tpch: 'three' is not a query number; give numbers like 3,4,10 or 'all'",
                "--sf        | 0         | faro tpch: the scale factor must be positive, got 0.0",
                "--sf        | -1        | faro tpch: the scale factor must be positive, got -1.0",
                "--sf        | lots      | faro tpch: Invalid value for option '--sf': 'lots' is not a number (see faro tpch --help)",
                "--sf        | 3d        | faro tpch: Invalid value for option '--sf': '3d' is not a number (see faro tpch --help)",
                "--sf        | NaN       | faro tpch: Invalid value for option '--sf': 'NaN' is not a number (see faro tpch --help)",
                "--sf        | 1e16      | faro tpch: the scale factor must be at most 100000 (TPC-H's largest), got 1.0E16",
                "--nodes     | x         | faro tpch: Invalid value for option '--nodes': 'x' is not a whole number (see faro tpch --help)",
                "--threads   | 1000      | faro tpch: --threads must be between 1 and 32 per node, got 1000",
                "--threads   | 33        | faro tpch: --threads must be between 1 and 32 per node, got 33",
                "--nodes     | 0         | faro tpch: --nodes must be at least 1, got 0",
                "--nodes     | 65        | faro tpch: 65 nodes is more than a local cluster runs (at most 64)",
                "--placement | hash      | faro tpch: unknown placement 'hash'; choose random or first-key",
                "--threads   | 0         | faro tpch: --threads must be between 1 and 32 per node, got 0",
                "--worker-heap | 4 gigs  | faro tpch: --worker-heap takes a size like 512m or 4g, not '4 gigs'",
                "--format    | xml       | faro tpch: Invalid value for option '--format': expected one of [table, csv, json] (case-sensitive) but was 'xml' (see faro tpch --help)",
            })
    void badValuesAreOneLineErrors(String option, String value, String message) {
        assertThat(run("tpch", option, value)).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList()).containsExactly(message);
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void anUnknownTransportIsOneLineNamingTheKnownOnes() {
        assertThat(run("tpch", "--transport", "XYZ")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList())
                .singleElement()
                .asString()
                .startsWith("faro tpch: unknown exchange transport 'XYZ'; known: SESQ/SR, MESQ/SR, SEMQ/SR, MEMQ/SR,"
                        + " SEMQ/RD, MEMQ/RD, SEMQ/WR, MEMQ/WR, TCP sockets");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aHeapTooSmallForTheScaleFactorIsRefused() {
        assertThat(run("tpch", "--sf", "0.01", "--worker-heap", "64m")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList())
                .containsExactly("faro tpch: --worker-heap 64m is too small for"
                        + " SF 0.01 on 2 nodes: each worker needs at least 327m");
    }

    @Test
    void aScaleFactorBeyondThisMachinesMemoryIsRefusedBeforeStarting() {
        assertThat(run("tpch", "--sf", "100000")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList())
                .singleElement()
                .asString()
                .startsWith("faro tpch: SF 100000 on 2 nodes needs about ")
                .contains("available (of ");
    }

    @Test
    void theMemoryCheckUsesWhatIsAvailableAndWhatTheHeapsReserve() {
        HostMemory memory = new HostMemory(16 << 10, 4 << 10);
        TpchOptions.checkFits(2, 1, 2048, memory); // 2 x (1 GiB of data + base) fits 4 GiB available
        assertThatThrownBy(() -> TpchOptions.checkFits(2, 4, 4096, memory))
                .hasMessage("SF 4 on 2 nodes needs about 6.1 GiB of memory; this machine has 4.0 GiB available (of"
                        + " 16.0 GiB; use a smaller --sf)");
        assertThatThrownBy(() -> TpchOptions.checkFits(2, 1, 8192, memory))
                .hasMessage("2 nodes with 8192 MiB of heap each need about 16.5 GiB; this machine has 16.0 GiB (use"
                        + " fewer nodes, a smaller --worker-heap or a smaller --sf)");
    }

    @Test
    void blanksAroundNumbersAreStrippedForEveryOption() {
        // both parse; the run then stops at the bad query number, before any worker starts
        assertThat(run("tpch", "--sf", " 3 ", "--nodes", " 3 ", "--threads", " 2 ", "--queries", "99"))
                .isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList()).containsExactly("faro tpch: TPC-H has queries 1 to 22, not 99");
    }

    @Test
    void benchTpchNamesItself() {
        assertThat(run("bench", "tpch", "--sf", "0")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList())
                .containsExactly("faro bench tpch: the scale factor must be"
                        + " positive, got 0.0 (see faro bench tpch --help)");
    }

    @Test
    void benchTpchRefusesAnUnknownOrRepeatedTransportInOneLine() {
        assertThat(run("bench", "tpch", "--transports", "MEMQ/SR,carrier-pigeon"))
                .isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList())
                .singleElement()
                .asString()
                .startsWith("faro bench tpch: unknown exchange transport 'carrier-pigeon'; known: SESQ/SR, MESQ/SR,"
                        + " SEMQ/SR, MEMQ/SR, SEMQ/RD, MEMQ/RD, SEMQ/WR, MEMQ/WR, TCP sockets")
                .endsWith(", or all (see faro bench tpch --help)");
        err.getBuffer().setLength(0);
        assertThat(run("bench", "tpch", "--transports", "tcp,mesq_sr,TCP")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList())
                .containsExactly("faro bench tpch: transport TCP sockets is named twice (see faro bench tpch --help)");
    }

    @Test
    void aSecretOnTheCommandLineIsNeverEchoed() {
        assertThat(run("worker", "--join", "127.0.0.1:1", "--secret", "hunter2"))
                .isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run("worker", "--join", "127.0.0.1:1", "--secret=hunter2")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run("tpch", "--password", "hunter2")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(run("tpch", "--api-token=hunter2")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString())
                .doesNotContain("hunter2")
                .contains("faro worker: the secret never goes on the" + " command line")
                .contains("faro tpch: Unknown options: '--password', '***'");
        assertThat(err.toString().lines()).hasSize(4);
    }

    @Test
    void helpExplainsTheDefaults() {
        assertThat(run("tpch", "--help")).isZero();
        assertThat(out.toString()).contains("--nodes", "--sf", "--queries", "--design", "--format", "MESQ/SR");
    }
}
