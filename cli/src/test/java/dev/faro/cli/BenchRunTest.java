package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The scaffolding the {@code faro bench} commands share: exit codes, the one-line failure, the "wrote" line. */
class BenchRunTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** A bench command whose option says how its run ends. */
    @Command(name = "fake")
    static final class FakeBench implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--outcome")
        private String outcome = "ok";

        @Override
        public Integer call() throws InterruptedException {
            BenchRun run = new BenchRun(spec);
            String checked = run.options(() -> {
                if (outcome.equals("bad")) {
                    throw new IllegalArgumentException("--outcome bad is refused");
                }
                return outcome;
            });
            return run.run(output -> {
                run.progress().accept("progress line");
                switch (checked) {
                    case "state" -> throw new IllegalStateException("a worker died");
                    case "io" -> throw new UncheckedIOException(new java.io.IOException("disk full"));
                    default -> BenchRun.printWrote(output, List.of(Path.of("a.csv")));
                }
            });
        }
    }

    private int run(String... args) {
        CommandLine commandLine = new CommandLine(new FakeBench());
        ParameterErrors.install(commandLine);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void aRunThatSucceedsPrintsWhatItWroteAndExitsZero() {
        assertThat(run()).isEqualTo(CommandLine.ExitCode.OK);
        assertThat(out.toString().lines().toList()).containsExactly("wrote a.csv");
        assertThat(err.toString().lines().toList()).containsExactly("progress line");
    }

    @Test
    void aRunThatFailsPrintsOneLineNamingTheCommandAndExitsOne() {
        assertThat(run("--outcome", "state")).isEqualTo(BenchRun.FAILED);
        assertThat(err.toString().lines().toList()).containsExactly("progress line", "fake: a worker died");
        assertThat(run("--outcome", "io")).isEqualTo(BenchRun.FAILED);
        assertThat(err.toString()).contains("fake: java.io.IOException: disk full");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aRefusedValueIsAUsageError() {
        assertThat(run("--outcome", "bad")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString().lines().toList()).containsExactly("fake: --outcome bad is refused (see fake --help)");
    }

    @Test
    void theWroteLineNamesEveryFileAndTheLastWithAnd() {
        StringWriter line = new StringWriter();
        PrintWriter writer = new PrintWriter(line);
        BenchRun.printWrote(writer, List.of(Path.of("a.csv"), Path.of("a.json")));
        BenchRun.printWrote(writer, List.of(Path.of("a.csv"), Path.of("a.json"), Path.of("a.png"), Path.of("b.png")));
        writer.flush();
        assertThat(line.toString().lines().toList())
                .containsExactly("wrote a.csv and a.json", "wrote a.csv, a.json, a.png and b.png");
    }
}
