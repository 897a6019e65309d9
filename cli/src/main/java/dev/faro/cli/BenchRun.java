package dev.faro.cli;

import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.fabric.FaroException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * What every {@code faro bench} command does around its benchmark: progress lines go to standard error as they come;
 * a bad value ({@link IllegalArgumentException}) is a parameter error (exit 2, one line naming the command, see
 * {@link ParameterErrors}); a run that fails ({@link FaroException}, {@link UncheckedIOException},
 * {@link IllegalStateException}: a worker died, a file could not be written) prints "{@code faro bench NAME: message}"
 * on standard error, nothing when the user stopped the run ({@link UserStop}), and exits {@link #FAILED}. One instance
 * per {@code call()}. Coordination code.
 */
final class BenchRun {

    /** Exit code when a benchmark fails at run time. */
    static final int FAILED = 1;

    /** The part of a benchmark that runs after its options were checked, printing its results to {@code out}. */
    @FunctionalInterface
    interface Body {
        void run(PrintWriter out) throws InterruptedException;
    }

    private final CommandSpec spec;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Consumer<String> progress;

    /** The run of the command {@code spec} (its {@code @Spec}). */
    BenchRun(CommandSpec spec) {
        this.spec = spec;
        this.out = spec.commandLine().getOut();
        this.err = spec.commandLine().getErr();
        this.progress = line -> {
            err.println(line);
            err.flush();
        };
    }

    /** Prints each line on standard error at once. */
    Consumer<String> progress() {
        return progress;
    }

    /** Standard error, for a command that prints more than progress there (e.g. a comparison's notes). */
    PrintWriter err() {
        return err;
    }

    /** {@code parse}'s value; its {@link IllegalArgumentException} (or {@link ArithmeticException}) a usage error. */
    <T> T options(Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw usageError(spec, e);
        }
    }

    /**
     * The workers that join at {@code --listen} over {@code provider} for a benchmark of up to {@code nodes} nodes (the
     * value of {@code option}), or null for a local cluster; every refusal is a usage error.
     */
    ClusterStart joined(ClusterOptions cluster, String provider, String option, int nodes) {
        return options(() -> {
            cluster.requireJoined(option, nodes);
            return cluster.listening() ? cluster.joining(provider, progress) : null;
        });
    }

    /** The usage error of the command {@code spec} whose one line is {@code cause}'s message. */
    static ParameterException usageError(CommandSpec spec, RuntimeException cause) {
        return new ParameterException(spec.commandLine(), cause.getMessage());
    }

    /**
     * Runs {@code body}, then flushes standard output: {@link CommandLine.ExitCode#OK}, or {@link #FAILED} after
     * {@link #failed} when the benchmark fails at run time.
     */
    int run(Body body) throws InterruptedException {
        try {
            body.run(out);
            out.flush();
            return CommandLine.ExitCode.OK;
        } catch (FaroException | UncheckedIOException | IllegalStateException e) {
            failed(e.getMessage());
            return FAILED;
        }
    }

    /** Prints the command's one-line failure "{@code faro bench NAME: message}", unless the user stops this JVM. */
    void failed(String message) {
        UserStop.printFailure(err, spec.qualifiedName() + ": " + message);
    }

    /** Prints "{@code wrote a, b and c}" on {@code out}. */
    static void printWrote(PrintWriter out, List<Path> files) {
        StringBuilder line = new StringBuilder("wrote ");
        for (int i = 0; i < files.size(); i++) {
            if (i > 0) {
                line.append(i == files.size() - 1 ? " and " : ", ");
            }
            line.append(files.get(i));
        }
        out.println(line);
    }
}
