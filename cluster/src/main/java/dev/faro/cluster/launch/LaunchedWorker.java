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
import java.util.concurrent.TimeUnit;

/**
 * A worker JVM this process started: its pid, exit status, the tail of its standard error, and the threads that
 * forward its output to this process's standard error with a {@code [node N]} prefix (standard error always,
 * standard output only when asked: workers write warnings and errors to standard error). Unless standard output is
 * forwarded too (verbose), the frames of the worker's stack traces go to a log file instead of the terminal (see
 * {@link StackTraceDiversion}). Coordination code.
 *
 * <p>Every launched process is registered with {@link ChildProcesses}, so Ctrl-C or SIGTERM of the coordinator stops
 * it gracefully and leaves no orphan (the workers also exit by themselves when their coordinator connection drops).
 */
public final class LaunchedWorker {

    private static final int STDERR_TAIL_LINES = 5;

    private final int node;
    private final Process process;
    private final Deque<String> stderrTail = new ArrayDeque<>();

    LaunchedWorker(int node, Process process, PrintStream log, boolean forwardStandardOutput, Runnable onExit) {
        this.node = node;
        this.process = process;
        ChildProcesses.register(process, onExit);
        String prefix = "[node " + node + "] ";
        StackTraceDiversion traces = forwardStandardOutput ? null : new StackTraceDiversion(node, process.pid());
        Thread.ofVirtual()
                .name("faro-node-" + node + "-stdout")
                .start(() ->
                        forward(process.getInputStream(), forwardStandardOutput ? log : null, prefix, null, false));
        Thread.ofVirtual()
                .name("faro-node-" + node + "-stderr")
                .start(() -> forward(process.getErrorStream(), log, prefix, traces, true));
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
        if (process.isAlive()) {
            ChildProcesses.stop(List.of(process), System.nanoTime() + grace.toNanos());
        }
    }

    /** Kills the process at once (SIGKILL). */
    public void kill() {
        process.destroyForcibly();
    }

    private void forward(
            InputStream stream, PrintStream log, String prefix, StackTraceDiversion traces, boolean keepTail) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (keepTail && !StackTraceDiversion.isTraceLine(line)) {
                    synchronized (stderrTail) {
                        if (stderrTail.size() == STDERR_TAIL_LINES) {
                            stderrTail.removeFirst();
                        }
                        stderrTail.addLast(line);
                    }
                }
                String shown = traces != null ? traces.divert(line) : line;
                if (log != null && shown != null) {
                    log.println(prefix + shown);
                }
            }
        } catch (IOException ignored) {
            // the pipe broke: the process is gone
        } finally {
            if (traces != null) {
                traces.close();
            }
        }
    }
}
