package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.bench.experiment.ExperimentSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** Option parsing of {@code faro bench shuffle e1 ... e8}; the experiments themselves are tested in the bench module. */
class BenchExperimentCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = FaroCommand.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    private static ExperimentSettings parse(String... args) {
        CommandLine.ParseResult parsed = FaroCommand.newCommandLine().parseArgs(args);
        BenchExperimentCommand command = parsed.subcommand()
                .subcommand()
                .subcommand()
                .commandSpec()
                .commandLine()
                .getCommand();
        return command.settings(command.driver());
    }

    @ParameterizedTest
    @ValueSource(strings = {"e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"})
    void everyExperimentHasHelp(String experiment) {
        assertThat(run("bench", "shuffle", experiment, "--help")).isEqualTo(CommandLine.ExitCode.OK);
        assertThat(out.toString())
                .contains("Usage: faro bench shuffle " + experiment)
                .contains("--quick")
                .contains("--min-seconds");
    }

    @Test
    void e4DefaultsAreTwoAndFourNodesWithCalibration() {
        ExperimentSettings settings = parse("bench", "shuffle", "e4");
        assertThat(settings.nodeCounts()).containsExactly(2, 4);
        assertThat(settings.runs()).isEqualTo(3);
        assertThat(settings.minimumSeconds()).isEqualTo(2.0);
        assertThat(settings.quick()).isFalse();
        assertThat(settings.outputDirectory()).isEqualTo(Path.of("results"));
    }

    @Test
    void quickSetsItsDefaultsAndExplicitOptionsWin() {
        ExperimentSettings settings = parse(
                "bench", "shuffle", "e4", "--quick", "--nodes", "3,2", "--tuples", "4K", "--runs", "2", "--out", "x");
        assertThat(settings.quick()).isTrue();
        assertThat(settings.nodeCounts()).containsExactly(2, 3);
        assertThat(settings.tuplesPerThread()).isEqualTo(4096);
        assertThat(settings.runs()).isEqualTo(2);
        assertThat(settings.minimumSeconds()).isZero();
        assertThat(settings.outputDirectory()).isEqualTo(Path.of("x"));
    }

    @Test
    void badValuesAreOneLineUsageErrors() {
        assertThat(run("bench", "shuffle", "e4", "--nodes", "2,0")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList())
                .containsExactly("faro bench shuffle e4: node counts must be in"
                        + " [1, 16]: 0 (see faro bench shuffle e4 --help)");
    }
}
