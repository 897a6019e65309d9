package dev.faro.cli;

import dev.faro.cluster.protocol.ClusterSecret;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * How {@code faro} treats a bad command line: numbers are read the same way by every option (surrounding blanks
 * stripped, plain decimal notation only: no {@code NaN}, {@code Infinity}, hex or {@code 3d}), and a bad value of a
 * command prints one line naming that command ({@code faro bench tpch: ...}) and exits 2; a command group without its
 * subcommand still prints its usage. Values of secret-looking options ({@code --secret}, {@code --token},
 * {@code --password}, ...) and the cluster secret from the environment never appear in an error. Coordination code.
 */
final class ParameterErrors implements CommandLine.IParameterExceptionHandler {

    private static final String REDACTED = "***";

    private final CommandLine.IParameterExceptionHandler usage;

    private ParameterErrors(CommandLine.IParameterExceptionHandler usage) {
        this.usage = usage;
    }

    /** Installs the number converters and this handler on {@code commandLine} and its subcommands. */
    static void install(CommandLine commandLine) {
        commandLine.registerConverter(Integer.class, ParameterErrors::integer);
        commandLine.registerConverter(Integer.TYPE, ParameterErrors::integer);
        commandLine.registerConverter(Double.class, ParameterErrors::decimal);
        commandLine.registerConverter(Double.TYPE, ParameterErrors::decimal);
        commandLine.setParameterExceptionHandler(new ParameterErrors(commandLine.getParameterExceptionHandler()));
    }

    @Override
    public int handleParseException(ParameterException exception, String[] args) throws Exception {
        String message = redact(String.valueOf(exception.getMessage()), args);
        CommandLine command = exception.getCommandLine();
        if (!command.getSubcommands().isEmpty()) {
            boolean redacted = !message.equals(exception.getMessage());
            return redacted
                    ? usage.handleParseException(new ParameterException(command, message), new String[0])
                    : usage.handleParseException(exception, args);
        }
        String name = command.getCommandSpec().qualifiedName();
        PrintWriter err = command.getErr();
        err.println(name + ": " + message + " (see " + name + " --help)");
        err.flush();
        return CommandLine.ExitCode.USAGE;
    }

    /** {@code message} with the values of secret-looking options in {@code args} replaced. */
    static String redact(String message, String[] args) {
        List<String> secrets = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            int equals = arg.indexOf('=');
            String name = (equals < 0 ? arg : arg.substring(0, equals)).toLowerCase(Locale.ROOT);
            if (!name.startsWith("-") || !isSecretOption(name)) {
                continue;
            }
            if (equals >= 0) {
                secrets.add(arg.substring(equals + 1));
            } else if (i + 1 < args.length) {
                secrets.add(args[i + 1]);
            }
        }
        String environment = System.getenv(ClusterSecret.ENVIRONMENT_VARIABLE);
        if (environment != null) {
            secrets.add(environment.strip());
        }
        String redacted = message;
        for (String secret : secrets) {
            if (!secret.isEmpty()) {
                redacted = redacted.replace(secret, REDACTED);
            }
        }
        return redacted;
    }

    private static boolean isSecretOption(String name) {
        if (name.endsWith("-file")) {
            return false; // --secret-file names a file, not a secret
        }
        return name.contains("secret")
                || name.contains("password")
                || name.contains("token")
                || name.contains("passwd");
    }

    private static Integer integer(String value) {
        try {
            return Integer.valueOf(value.strip());
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a whole number");
        }
    }

    private static Double decimal(String value) {
        try {
            return new BigDecimal(value.strip()).doubleValue();
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a number");
        }
    }
}
