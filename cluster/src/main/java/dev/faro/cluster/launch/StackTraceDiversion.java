package dev.faro.cluster.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.regex.Pattern;

/**
 * Keeps a worker's stack traces off the user's terminal: the frames of a trace ({@code at ...}, {@code ... 3 more},
 * {@code Caused by: ...}, {@code Suppressed: ...}) go to a log file instead, created at the first one
 * ({@code <java.io.tmpdir>/faro-logs/node-N-pid-P.log}), and the terminal gets one line saying where it is. The
 * exception's own line (its class and message) still reaches the terminal. Coordination code; one instance per
 * worker, used by the thread that forwards its standard error.
 */
final class StackTraceDiversion {

    /** Where worker logs with stack traces go. */
    static final Path LOG_DIRECTORY = Path.of(System.getProperty("java.io.tmpdir"), "faro-logs");

    private static final Pattern TRACE_LINE =
            Pattern.compile("^\\s*(at \\S+\\(.*\\)|\\.\\.\\. \\d+ more|Caused by: .*|Suppressed: .*)\\s*$");

    private final int node;
    private final long pid;
    private PrintStream file;
    private boolean failed;
    /** The last line not diverted: a trace's exception line, written to the file before the trace. */
    private String previous;

    StackTraceDiversion(int node, long pid) {
        this.node = node;
        this.pid = pid;
    }

    static boolean isTraceLine(String line) {
        return TRACE_LINE.matcher(line).matches();
    }

    /**
     * Diverts {@code line} if it belongs to a stack trace; returns the line the terminal gets instead (the log file's
     * path, once), or {@code line} itself when it is not part of a trace, or null when nothing is to be shown.
     */
    String divert(String line) {
        if (!isTraceLine(line)) {
            if (file != null) {
                file.println(line); // context for the trace, e.g. the next exception's line
            }
            previous = line;
            return line;
        }
        if (file == null && !failed) {
            Path path = LOG_DIRECTORY.resolve("node-" + node + "-pid-" + pid + ".log");
            try {
                Files.createDirectories(LOG_DIRECTORY);
                file = new PrintStream(
                        Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND),
                        true,
                        StandardCharsets.UTF_8);
                if (previous != null) {
                    file.println(previous);
                }
                file.println(line);
                return "(stack trace written to " + path + ")";
            } catch (IOException | UnsupportedOperationException e) {
                failed = true;
                return "(stack trace not shown; cannot write " + path + ": " + e.getMessage() + ")";
            }
        }
        if (file != null) {
            file.println(line);
        }
        return null;
    }

    void close() {
        if (file != null) {
            file.close();
        }
    }
}
