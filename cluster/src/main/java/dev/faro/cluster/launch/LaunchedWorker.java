package dev.faro.cluster.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A worker JVM this process started: its pid, exit status, the tail of its standard error, and the threads that
 * forward its output to this process's standard error with a {@code [node N]} prefix (standard error always,
 * standard output only when asked: workers write warnings and errors to standard error). Coordination code.
 *
 * <p>Every live launched process is destroyed by a JVM shutdown hook, so Ctrl-C of the coordinator leaves no
 * orphans (the workers also exit by themselves when their coordinator connection drops).
 */
public final class LaunchedWorker {

    private static final int STDERR_TAIL_LINES = 5;
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(LaunchedWorker::destroyAllLive, "faro-worker-reaper"));
    }

    private final int node;
    private final Process process;
    private final Deque<String> stderrTail = new ArrayDeque<>();

    LaunchedWorker(int node, Process process, PrintStream log, boolean forwardStandardOutput) {
        this.node = node;
        this.process = process;
        LIVE.add(process);
        process.onExit().thenRun(() -> LIVE.remove(process));
        String prefix = "[node " + node + "] ";
        Thread.ofVirtual().name("faro-node-" + node + "-stdout")
                .start(() -> forward(process.getInputStream(), forwardStandardOutput ? log : null, prefix, false));
        Thread.ofVirtual().name("faro-node-" + node + "-stderr")
                .start(() -> forward(process.getErrorStream(), log, prefix, true));
    }

    /** The node this process was started for. */
    public int node() {
        return node;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code, or null while the process runs. */
    public Integer exitCode() {
        return process.isAlive() ? null : process.exitValue();
    }

    /** Waits up to {@code timeout} for the process to end; returns whether it has. */
    public boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /** "exited with code 3", "was killed by signal 9 (exit code 137)", or "is still running". */
    public String describeExit() {
        Integer code = exitCode();
        if (code == null) {
            return "is still running";
        }
        if (code > 128 && code < 160) {
            return "died with exit code " + code + " (signal " + (code - 128) + ")";
        }
        return "died with exit code " + code;
    }

    /** The last lines the process wrote to standard error (a snapshot). */
    public List<String> stderrTail() {
        synchronized (stderrTail) {
            return List.copyOf(stderrTail);
        }
    }

    /** Asks the process to end (SIGTERM), then kills it when it has not ended within {@code grace}. Never throws. */
    public void destroy(Duration grace) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!awaitExit(grace)) {
            process.destroyForcibly();
            awaitExit(Duration.ofSeconds(5));
        }
    }

    /** Kills the process at once (SIGKILL). */
    public void kill() {
        process.destroyForcibly();
    }

    private void forward(InputStream stream, PrintStream log, String prefix, boolean keepTail) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (keepTail) {
                    synchronized (stderrTail) {
                        if (stderrTail.size() == STDERR_TAIL_LINES) {
                            stderrTail.removeFirst();
                        }
                        stderrTail.addLast(line);
                    }
                }
                if (log != null) {
                    log.println(prefix + line);
                }
            }
        } catch (IOException ignored) {
            // the pipe broke: the process is gone
        }
    }

    private static void destroyAllLive() {
        for (Process process : LIVE) {
            process.destroyForcibly();
        }
    }
}
