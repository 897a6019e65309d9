package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class FaroCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = FaroCommand.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void helpListsBenchAndExitsZero() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("Usage: faro").contains("bench");
    }

    @Test
    void benchHelpListsFabric() {
        assertThat(run("bench", "--help")).isZero();
        assertThat(out.toString()).contains("Usage: faro bench").contains("fabric");
    }

    @Test
    void unknownOptionIsUsageErrorWithoutStackTrace() {
        assertThat(run("--no-such-option"))
                .isEqualTo(CommandLine.ExitCode.USAGE)
                .isEqualTo(2);
        assertThat(err.toString())
                .startsWith("Unknown option: '--no-such-option'")
                .contains("Usage: faro")
                .doesNotContain("Exception")
                .doesNotContain("\tat ");
    }

    @Test
    void missingSubcommandIsUsageError() {
        assertThat(run("bench")).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required subcommand").contains("Usage: faro bench");
    }

    @Test
    void benchFabricHelpListsItsOptions() {
        assertThat(run("bench", "fabric", "--help")).isZero();
        assertThat(out.toString())
                .contains("Usage: faro bench fabric")
                .contains("--sizes")
                .contains("--quick");
    }

    @Test
    void versionComesFromTheProject() {
        assertThat(run("--version")).isZero();
        assertThat(out.toString()).startsWith("faro ").doesNotContain("unknown").doesNotContain("${");
    }
}
