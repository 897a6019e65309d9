package dev.faro.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the {@code faro} command. Coordination code: parses the command line and dispatches to a
 * subcommand. Parse errors print one line plus the usage and exit with {@link CommandLine.ExitCode#USAGE} (2).
 */
@Command(
        name = "faro",
        mixinStandardHelpOptions = true,
        versionProvider = FaroCommand.VersionProvider.class,
        description = "Faro: RDMA-aware data shuffling and a parallel in-memory query engine for the JVM.",
        subcommands = {TpchCommand.class, BenchCommand.class, WorkerCommand.class})
public final class FaroCommand {

    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The configured command line, shared by {@link #main} and the tests. */
    static CommandLine newCommandLine() {
        CommandLine commandLine = new CommandLine(new FaroCommand());
        CommandLine.IParameterExceptionHandler usage = commandLine.getParameterExceptionHandler();
        commandLine.setParameterExceptionHandler((exception, args) -> {
            if (!exception.getCommandLine().getCommandName().equals("tpch")) {
                return usage.handleParseException(exception, args);
            }
            // faro tpch is the command users meet first: one line, no usage wall
            PrintWriter err = exception.getCommandLine().getErr();
            err.println("faro tpch: " + exception.getMessage() + " (see faro tpch --help)");
            err.flush();
            return CommandLine.ExitCode.USAGE;
        });
        return commandLine;
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
