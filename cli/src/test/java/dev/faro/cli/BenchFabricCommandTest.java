package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.bench.fabric.FabricBenchmarkConfig;
import dev.faro.bench.fabric.FabricOperation;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Option parsing of {@code faro bench fabric}; the benchmark itself is tested in the bench module. */
class BenchFabricCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = FaroCommand.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    private String firstErrorLine() {
        return err.toString().lines().findFirst().orElse("");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--sizes | 64,abc   | Invalid value for option '--sizes' (SIZE): 'abc' is not a byte size: use a positive"
                        + " number with an optional K, M or G suffix (64, 4K, 1M)",
                "--sizes | 0        | Invalid value for option '--sizes' (SIZE): '0' is not a byte size: use a positive"
                        + " number with an optional K, M or G suffix (64, 4K, 1M)",
                "--sizes | 4G       | Invalid value for option '--sizes' (SIZE): '4G' is larger than a message can be",
                "--ops   | write,cas | Invalid value for option '--ops' (OP): unknown operation 'cas'; known: write, read,"
                        + " rc-send, ud-send",
                "--provider | verbs | --provider must be one of shm, net, ucx, not 'verbs'",
                "--provider | shm,rdma | --provider must be one of shm, net, ucx, not 'rdma'",
                "--runs  | 0        | runs must be at least 1: 0",
                "--seconds-per-point | -1 | --seconds-per-point must be in (0, 3600]: -1.0",
                "--window | 0       | window must be in [1, 1024]: 0",
                "--sizes | 128M     | size 128M exceeds the working set of 64M",
            })
    void badValuesAreOneLineUsageErrorsWithoutAStackTrace(String option, String value, String message) {
        assertThat(run("bench", "fabric", option, value))
                .isEqualTo(CommandLine.ExitCode.USAGE)
                .isEqualTo(2);
        // the provider list grows with the providers
        assertThat(firstErrorLine())
                .startsWith("faro bench fabric: " + message)
                .endsWith(" (see faro bench fabric" + " --help)");
        assertThat(err.toString().lines()).hasSize(1);
        assertThat(err.toString()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(out.toString()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--listen 127.0.0.1:0 --workers 3 | --workers must be 2 for bench fabric (node 0 the initiator, node 1"
                        + " the target), not 3",
                "--listen 127.0.0.1:0 --workers 1 --provider net | --workers must be 2 for bench fabric (node 0 the"
                        + " initiator, node 1 the target), not 1",
                "--listen 127.0.0.1:0 --workers 2 --provider net,shm | --provider shm works on one host only; with"
                        + " --listen bench fabric measures net and/or ucx between the workers that join",
                "--listen 127.0.0.1:0 --workers 2 --provider shm | --provider shm works on one host only; with"
                        + " --listen bench fabric measures net and/or ucx between the workers that join",
                "--listen 127.0.0.1:0 | --listen needs --workers N: how many workers to wait for",
                "--workers 2 | --workers goes with --listen ADDR:PORT (workers started elsewhere); a local cluster's"
                        + " size is --nodes",
                "--listen 127.0.0.1:0 --workers 2 --secret x | the secret never goes on the command line",
                "--listen 127.0.0.1:0 --workers 2 --join-timeout soon | --join-timeout takes a positive time like"
                        + " 120s, 5m or 500ms, not 'soon'",
            })
    void listenRefusalsAreOneLineUsageErrorsBeforeAnythingStarts(String options, String message) {
        String[] args = ("bench fabric --quick " + options).split(" ");
        assertThat(run(args)).isEqualTo(2);
        assertThat(firstErrorLine()).startsWith("faro bench fabric: " + message);
        assertThat(err.toString().lines()).hasSize(1);
        assertThat(err.toString())
                .doesNotContain("Exception")
                .doesNotContain("listening on")
                .doesNotContain("'x'");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void quickSetsItsDefaultsAndExplicitOptionsWin() {
        CommandLine commandLine = FaroCommand.newCommandLine();
        CommandLine.ParseResult parsed = commandLine.parseArgs(
                "bench", "fabric", "--quick", "--sizes", "1K,64", "--ops", "ud-send", "--out", "x");
        BenchFabricCommand command =
                parsed.subcommand().subcommand().commandSpec().commandLine().getCommand();
        FabricBenchmarkConfig config = command.config();
        assertThat(config.sizesBytes()).containsExactly(64, 1024);
        assertThat(config.operations()).containsExactly(FabricOperation.UD_SEND);
        assertThat(config.runs()).isEqualTo(FabricBenchmarkConfig.QUICK_RUNS);
        assertThat(config.runDuration()).isEqualTo(FabricBenchmarkConfig.QUICK_RUN_DURATION);
        assertThat(config.outputDirectory()).isEqualTo(Path.of("x"));
    }

    @Test
    void withoutOptionsTheDefaultsApply() {
        CommandLine commandLine = FaroCommand.newCommandLine();
        CommandLine.ParseResult parsed = commandLine.parseArgs("bench", "fabric", "--seconds-per-point", "0.25");
        BenchFabricCommand command =
                parsed.subcommand().subcommand().commandSpec().commandLine().getCommand();
        FabricBenchmarkConfig config = command.config();
        assertThat(config.sizesBytes()).isEqualTo(FabricBenchmarkConfig.DEFAULT_SIZES);
        assertThat(config.operations()).containsExactly(FabricOperation.values());
        assertThat(config.runDuration()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.provider()).isEqualTo("shm");
        assertThat(config.outputDirectory()).isEqualTo(Path.of("results"));
    }
}
