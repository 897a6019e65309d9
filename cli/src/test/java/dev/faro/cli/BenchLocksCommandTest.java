package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Option parsing of {@code faro bench locks}; the benchmark itself is tested in the bench module. */
class BenchLocksCommandTest {

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
                "--experiments | remote,joins | unknown experiment 'joins'; known: [remote, isolation, nodes, roles]",
                "--policy | sometimes | --policy must be timeout, no-wait or wait-die, not 'sometimes'",
                "--remote | 120 | --remote values must be in [0, 100]: 120.0",
                "--nodes | 0 | --nodes must be in [1, 16]: 0",
                "--seconds | 0 | --seconds must be in [0.01, 3600]: 0.0",
                "--provider | verbs | --provider must be one of shm, net, ucx, not 'verbs'",
            })
    void badValuesAreOneLineUsageErrors(String option, String value, String message) {
        assertThat(run("bench", "locks", option, value)).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().findFirst().orElse(""))
                .startsWith("faro bench locks: " + message)
                .endsWith(" (see faro bench locks --help)");
        assertThat(err.toString().lines()).hasSize(1);
        assertThat(err.toString()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void remoteLocksOnOneNodeAreRefused() {
        assertThat(run("bench", "locks", "--nodes", "1", "--remote", "10")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).startsWith("faro bench locks: remote locks need --nodes 2 or more");
    }

    @Test
    void helpExplainsTheExperimentsAndThePaperColumns() {
        assertThat(run("bench", "locks", "--help")).isZero();
        assertThat(out.toString())
                .contains(
                        "ETH19",
                        "WRITE_WITH_IMMEDIATE",
                        "FETCH_ADD",
                        "Table 5.1",
                        "--experiments",
                        "--remote",
                        "--servers",
                        "--agents",
                        "--policy",
                        "paper",
                        "--listen",
                        "--no-pin");
    }

    @Test
    void localNodesArePinnedUnlessToldNot() {
        CommandLine pinned = FaroCommand.newCommandLine();
        pinned.parseArgs("bench", "locks");
        assertThat(((BenchLocksCommand) pinned.getSubcommands()
                                .get("bench")
                                .getSubcommands()
                                .get("locks")
                                .getCommand())
                        .config()
                        .pinned())
                .isTrue();
        CommandLine unpinned = FaroCommand.newCommandLine();
        unpinned.parseArgs("bench", "locks", "--no-pin");
        assertThat(((BenchLocksCommand) unpinned.getSubcommands()
                                .get("bench")
                                .getSubcommands()
                                .get("locks")
                                .getCommand())
                        .config()
                        .pinned())
                .isFalse();
    }

    @Test
    void benchListsLocks() {
        assertThat(run("bench", "--help")).isZero();
        assertThat(out.toString()).contains("locks");
    }
}
