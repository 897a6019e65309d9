package dev.faro.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the {@code faro} command. Coordination code: parses the command line and dispatches to a
 * subcommand. A bad value prints one line naming the command and exits with {@link CommandLine.ExitCode#USAGE} (2);
 * output that cannot be written exits 1 with one line; Ctrl-C or SIGTERM says "stopped by user" ({@link UserStop}).
 */
@Command(
        name = "faro",
        mixinStandardHelpOptions = true,
        versionProvider = FaroCommand.VersionProvider.class,
        description = "Faro: RDMA-aware data shuffling and a parallel in-memory query engine for the JVM.",
        subcommands = {TpchCommand.class, BenchCommand.class, WorkerCommand.class})
public final class FaroCommand {

    /** Exit code when the command's output cannot be written (a full disk, a closed pipe). */
    static final int OUTPUT_FAILED = 1;

    public static void main(String[] args) {
        dev.faro.cluster.worker.WorkerMain.quietLogging();
        CheckedOutput stdout = new CheckedOutput(new FileOutputStream(FileDescriptor.out));
        CommandLine commandLine = newCommandLine();
        commandLine.setOut(new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true));
        String[] running = {"faro"};
        commandLine.setExecutionStrategy(parseResult -> {
            running[0] = lastSubcommand(parseResult).commandSpec().qualifiedName();
            UserStop.install(running[0], commandLine.getErr());
            return new CommandLine.RunLast().execute(parseResult);
        });
        int code = commandLine.execute(args);
        commandLine.getOut().flush();
        if (stdout.failure() != null) {
            commandLine
                    .getErr()
                    .println(running[0] + ": cannot write the output: "
                            + stdout.failure().getMessage());
            commandLine.getErr().flush();
            code = code == CommandLine.ExitCode.OK ? OUTPUT_FAILED : code;
        }
        UserStop.finished();
        System.exit(code);
    }

    /**
     * The configured command line, shared by {@link #main} and the tests: one-line parameter errors that name the
     * command (see {@link ParameterErrors}).
     */
    static CommandLine newCommandLine() {
        CommandLine commandLine = new CommandLine(new FaroCommand());
        ParameterErrors.install(commandLine);
        return commandLine;
    }

    private static CommandLine.ParseResult lastSubcommand(CommandLine.ParseResult parseResult) {
        CommandLine.ParseResult last = parseResult;
        while (last.hasSubcommand()) {
            last = last.subcommand();
        }
        return last;
    }

    /** Reads the project version that Maven filters into {@code version.properties}. */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Properties properties = new Properties();
            try (InputStream in = FaroCommand.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    properties.load(in);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new String[] {"faro " + properties.getProperty("version", "unknown")};
        }
    }
}
