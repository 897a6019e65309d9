package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.bench.shuffle.ShuffleThroughputConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Option parsing of {@code faro bench shuffle throughput}; the experiment itself is tested in the bench module. */
class BenchShuffleCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = FaroCommand.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    private static ShuffleThroughputConfig parse(String... args) {
        CommandLine.ParseResult parsed = FaroCommand.newCommandLine().parseArgs(args);
        BenchShuffleCommand.Throughput command = parsed.subcommand()
                .subcommand()
                .subcommand()
                .commandSpec()
                .commandLine()
                .getCommand();
        return command.config();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--designs | MESQ/SR,XYZ | unknown endpoint design 'XYZ'; known: [SESQ/SR, MESQ/SR, SEMQ/SR, MEMQ/SR, SEMQ/RD, MEMQ/RD, SEMQ/WR, MEMQ/WR]",
                "--tuples  | lots        | Invalid value for option '--tuples': 'lots' is not a row count: use a"
                        + " positive number with an optional K or M suffix",
                "--nodes   | 2,0         | node counts must be in [1, 16]: 0",
                "--runs    | 0           | runs must be at least 1: 0",
                "--threads | 0           | threads must be in [1, 255]: 0",
                "--scans   | 0           | scans must be at least 1: 0",
            })
    void badValuesAreOneLineUsageErrorsWithoutAStackTrace(String option, String value, String message) {
        assertThat(run("bench", "shuffle", "throughput", option, value)).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList())
                .containsExactly(
                        "faro bench shuffle throughput: " + message + " (see faro bench shuffle throughput --help)");
        assertThat(err.toString()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void withoutOptionsTheDefaultsApply() {
        ShuffleThroughputConfig config = parse("bench", "shuffle", "throughput");
        assertThat(config.nodeCounts()).containsExactly(2, 4);
        assertThat(config.designs()).isEqualTo(ShuffleThroughputConfig.implementedDesigns());
        assertThat(config.threads()).isEqualTo(ShuffleThroughputConfig.DEFAULT_THREADS);
        assertThat(config.tuplesPerThread()).isEqualTo(1 << 20);
        assertThat(config.runs()).isEqualTo(ShuffleThroughputConfig.DEFAULT_RUNS);
        assertThat(config.outputDirectory()).isEqualTo(Path.of("results"));
    }

    @Test
    void quickSetsItsDefaultsAndExplicitOptionsWin() {
        ShuffleThroughputConfig config = parse(
                "bench",
                "shuffle",
                "throughput",
                "--quick",
                "--nodes",
                "3,2",
                "--designs",
                "memq-sr,MESQ/SR",
                "--tuples",
                "4K",
                "--out",
                "x");
        assertThat(config.nodeCounts()).containsExactly(2, 3);
        assertThat(config.designs()).containsExactly(EndpointDesign.MESQ_SR, EndpointDesign.MEMQ_SR);
        assertThat(config.tuplesPerThread()).isEqualTo(4096);
        assertThat(config.runs()).isEqualTo(ShuffleThroughputConfig.QUICK_RUNS);
        assertThat(config.warmupRuns()).isEqualTo(ShuffleThroughputConfig.QUICK_WARMUP_RUNS);
        assertThat(config.outputDirectory()).isEqualTo(Path.of("x"));
    }

    @Test
    void allMeansEveryImplementedDesign() {
        assertThat(parse("bench", "shuffle", "throughput", "--designs", "all").designs())
                .isEqualTo(ShuffleThroughputConfig.implementedDesigns());
    }

    @Test
    void theGroupNeedsASubcommandAndListsThroughput() {
        assertThat(run("bench", "shuffle")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("Missing required subcommand").contains("throughput");
        assertThat(run("bench", "--help")).isZero();
        assertThat(out.toString()).contains("shuffle");
    }
}
