package dev.faro.bench.process;

import dev.faro.fabric.FaroException;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The worker's side of the line protocol (see the package documentation): reads commands from standard input,
 * hands each to a {@link CommandHandler} and writes exactly one reply line per command. Coordination code; the
 * worker's main thread runs {@link #serve}.
 */
public final class WorkerChannel {

    /** Marks protocol lines on the worker's standard output. */
    static final String REPLY_PREFIX = "@faro ";

    static final String OK = "OK";
    static final String ERROR = "ERROR";

    /** The command that ends {@link #serve} (after an OK reply). End of input ends it too. */
    public static final String EXIT = "EXIT";

    /** Runs one command on the worker's main thread. */
    @FunctionalInterface
    public interface CommandHandler {
        /**
         * Handles {@code verb} with its space-separated {@code arguments}.
         *
         * @return the reply payload (may be empty); an exception becomes a one-line {@code ERROR} reply and the
         *     worker keeps serving
         */
        String onCommand(String verb, List<String> arguments) throws Exception;
    }

    private WorkerChannel() {}

    /**
     * Serves commands from standard input until {@link #EXIT} or end of input (the coordinator closed the pipe or
     * died). From here on {@code System.out} points at standard error, so stray prints cannot corrupt the protocol.
     */
    public static void serve(CommandHandler handler) {
        PrintStream replies = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            String line;
            while ((line = commands.readLine()) != null) {
                String[] words = line.strip().split(" +");
                if (words[0].isEmpty()) {
                    continue;
                }
                if (words[0].equals(EXIT)) {
                    replies.println(REPLY_PREFIX + OK);
                    return;
                }
                replies.println(REPLY_PREFIX + handle(handler, words));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("worker: cannot read commands from standard input", e);
        }
    }

    private static String handle(CommandHandler handler, String[] words) {
        try {
            String payload = handler.onCommand(words[0], Arrays.asList(words).subList(1, words.length));
            return payload == null || payload.isEmpty() ? OK : OK + " " + payload;
        } catch (Exception e) {
            if (!isNotSupported(e)) {
                e.printStackTrace(System.err); // the coordinator keeps a tail of standard error for its messages
            }
            return ERROR + " " + oneLine(e);
        }
    }

    /**
     * A fabric that cannot work here (libucx not installed, say): its one line says what to install, so the user sees
     * that line, not a stack trace of the worker.
     */
    private static boolean isNotSupported(Exception e) {
        return e instanceof FaroException faro && faro.category() == FaroException.Category.NOT_SUPPORTED;
    }

    /** The exception's type and message on one line (and its cause's, when the message alone says little). */
    static String oneLine(Throwable failure) {
        String message = failure.getMessage() == null ? "" : failure.getMessage();
        String text = failure.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
        if (failure.getCause() != null && failure.getCause() != failure) {
            text += " (caused by " + oneLine(failure.getCause()) + ")";
        }
        return text.replaceAll("\\R", " | ");
    }
}
