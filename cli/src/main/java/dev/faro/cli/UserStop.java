package dev.faro.cli;

import dev.faro.cluster.launch.ChildProcesses;
import java.io.PrintWriter;

/**
 * What {@code faro} does when the user stops it (Ctrl-C, SIGTERM) while a command runs: a shutdown hook says
 * "{@code <command>: stopped by user}" on standard error, while the cluster's own hooks stop the workers gracefully
 * and remove their files; the JVM then exits with 128 + the signal number (130 for SIGINT, 143 for SIGTERM). A command
 * whose cluster fails because of the stop prints nothing about it ({@link #printFailure}). Coordination code.
 */
final class UserStop {

    private static final Object LOCK = new Object();
    /** Set when the command returned, so the exit that follows is not taken for a stop. Guarded by LOCK. */
    private static boolean finished;

    private UserStop() {}

    /** Installs the hook for the command named {@code commandName} (e.g. {@code faro tpch}); once per JVM. */
    static void install(String commandName, PrintWriter err) {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            synchronized (LOCK) {
                                if (finished) {
                                    return;
                                }
                            }
                            err.println(commandName + ": stopped by user");
                            err.flush();
                        },
                        "faro-user-stop"));
    }

    /**
     * The command returned; the JVM exits with its code next. Has no effect once a stop began: the command may have
     * returned because the stop closed its cluster.
     */
    static void finished() {
        synchronized (LOCK) {
            if (!stopping()) {
                finished = true;
            }
        }
    }

    /** Whether the user is stopping this JVM (its shutdown has begun while a command runs). */
    static boolean stopping() {
        return ChildProcesses.shuttingDown();
    }

    /** Prints a command's one-line failure, unless the failure comes from the user stopping this JVM. */
    static void printFailure(PrintWriter err, String line) {
        if (!stopping()) {
            err.println(line);
            err.flush();
        }
    }
}
