package dev.faro.bench.process;

import dev.faro.cluster.launch.ChildProcesses;
import dev.faro.fabric.FabricProvider;
import dev.faro.fabric.Fabrics;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The coordinator's handle on one worker JVM: starts it, sends it commands and waits for their replies (see the
 * package documentation for the line protocol), and makes sure it ends. Coordination code.
 *
 * <p>Threads: {@link #request} and {@link #close} are called by one coordinator thread at a time. Two virtual
 * threads per worker read its standard output (replies go to a queue, other lines to the log) and its standard
 * error (kept as a short tail for error messages, and passed to the log).
 */
public final class WorkerProcess implements AutoCloseable {

    /** How long {@link #close} waits for a worker to exit by itself after its standard input closed. */
    private static final Duration EXIT_GRACE = Duration.ofSeconds(3);

    /** Standard-error lines kept for error messages. */
    private static final int STDERR_TAIL_LINES = 15;

    private final WorkerSpec spec;
    private final Process process;
    private final BufferedWriter commands;
    private final BlockingQueue<Optional<String>> replies = new LinkedBlockingQueue<>();
    private final Deque<String> stderrTail = new ArrayDeque<>();
    private final Consumer<String> log;

    /** Set once the worker's standard output ended; coordinator thread only. */
    private boolean outputEnded;

    private WorkerProcess(WorkerSpec spec, Process process, Consumer<String> log) {
        this.spec = spec;
        this.process = process;
        this.log = log;
        this.commands = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        Thread.ofVirtual().name("faro-worker-stdout-" + spec.name()).start(() -> readOutput(process.getInputStream()));
        Thread.ofVirtual().name("faro-worker-stderr-" + spec.name()).start(() -> readErrors(process.getErrorStream()));
    }

    /**
     * Starts a worker. Lines the worker writes outside the protocol (its standard error, stray standard output) go to
     * {@code log}, prefixed with {@code [name]}.
     *
     * @throws WorkerFailedException if the process cannot be started
     */
    public static WorkerProcess start(WorkerSpec spec, Consumer<String> log) {
        List<String> command = command(spec);
        ProcessBuilder builder = new ProcessBuilder(command);
        try {
            Process process = builder.start();
            // stopped gracefully when this JVM ends (Ctrl-C); the fabric files of a worker that died go with it
            ChildProcesses.register(process, WorkerProcess::removeFabricLeftovers);
            return new WorkerProcess(spec, process, log);
        } catch (IOException e) {
            throw new WorkerFailedException(
                    spec.name(),
                    "cannot start worker '" + spec.name() + "' (" + command.get(0) + "): " + e.getMessage());
        }
    }

    /** Starts a worker whose log lines are dropped (they still appear in error messages). */
    public static WorkerProcess start(WorkerSpec spec) {
        return start(spec, line -> {});
    }

    /** The child's command line: this JVM's {@code java}, class path, native access, heap, options, main, args. */
    static List<String> command(WorkerSpec spec) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.add("-Xmx" + spec.maxHeap());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(spec.jvmOptions());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(spec.mainClass());
        command.addAll(spec.arguments());
        return command;
    }

    private static String javaBinary() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElseGet(() ->
                        Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public String name() {
        return spec.name();
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Sends {@code command} and returns the reply's payload, waiting at most the spec's reply timeout. */
    public String request(String command) {
        return request(command, spec.replyTimeout());
    }

    /**
     * Sends one command line and waits for its reply.
     *
     * @return the text after {@code OK} (empty when the worker sent none)
     * @throws WorkerFailedException when the worker answers with an error, has died, or does not answer in time
     */
    public String request(String command, Duration timeout) {
        String verb = command.strip().split(" ", 2)[0];
        if (outputEnded) {
            throw died(verb);
        }
        try {
            commands.write(command);
            commands.newLine();
            commands.flush();
        } catch (IOException e) {
            awaitExit(Duration.ofSeconds(1));
            throw died(verb);
        }
        Optional<String> reply;
        try {
            reply = replies.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkerFailedException(
                    name(), "interrupted while waiting for worker '" + name() + "' to answer " + verb);
        }
        if (reply == null) {
            throw new WorkerFailedException(
                    name(),
                    "worker '" + name() + "' (pid " + pid() + ") did not answer " + verb + " within "
                            + timeout.toMillis() / 1000.0 + " s");
        }
        if (reply.isEmpty()) {
            outputEnded = true;
            awaitExit(Duration.ofSeconds(2));
            throw died(verb);
        }
        String text = reply.get();
        if (text.equals(WorkerChannel.OK) || text.startsWith(WorkerChannel.OK + " ")) {
            return text.substring(WorkerChannel.OK.length()).strip();
        }
        String message = text.startsWith(WorkerChannel.ERROR + " ")
                ? text.substring(WorkerChannel.ERROR.length() + 1)
                : "unexpected reply '" + text + "'";
        throw new WorkerFailedException(name(), "worker '" + name() + "' failed " + verb + ": " + message);
    }

    private WorkerFailedException died(String verb) {
        StringBuilder message = new StringBuilder("worker '")
                .append(name())
                .append("' (pid ")
                .append(pid())
                .append(") died while running ")
                .append(verb);
        if (!process.isAlive()) {
            int code = process.exitValue();
            message.append(": exit code ").append(code);
            if (code > 128) {
                message.append(" (killed by signal ").append(code - 128).append(')');
            }
        }
        List<String> tail = stderrTail();
        if (!tail.isEmpty()) {
            message.append("; its last standard-error lines:");
            for (String line : tail) {
                message.append(System.lineSeparator()).append("  ").append(line);
            }
        }
        return new WorkerFailedException(name(), message.toString());
    }

    /** The last lines the worker wrote to standard error (a snapshot). */
    public List<String> stderrTail() {
        synchronized (stderrTail) {
            return List.copyOf(stderrTail);
        }
    }

    /**
     * Ends the worker: closes its standard input (the worker's loop ends), waits briefly, then destroys it, forcibly
     * if need be. Never throws. Idempotent.
     */
    @Override
    public void close() {
        try {
            commands.close();
        } catch (IOException ignored) {
            // the worker is gone already
        }
        if (!awaitExit(EXIT_GRACE)) {
            process.destroy();
            if (!awaitExit(Duration.ofSeconds(1))) {
                process.destroyForcibly();
                awaitExit(Duration.ofSeconds(5));
            }
        }
    }

    private boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private void readOutput(InputStream output) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith(WorkerChannel.REPLY_PREFIX)) {
                    replies.add(Optional.of(line.substring(WorkerChannel.REPLY_PREFIX.length())));
                } else {
                    log.accept("[" + name() + "] " + line);
                }
            }
        } catch (IOException ignored) {
            // the pipe broke: the worker is gone, which the end marker below reports
        } finally {
            replies.add(Optional.empty());
        }
    }

    private void readErrors(InputStream errors) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(errors, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                synchronized (stderrTail) {
                    if (stderrTail.size() == STDERR_TAIL_LINES) {
                        stderrTail.removeFirst();
                    }
                    stderrTail.addLast(line);
                }
                log.accept("[" + name() + "] " + line);
            }
        } catch (IOException ignored) {
            // the worker is gone
        }
    }

    /** Removes the shared-memory files of workers that died without closing their fabric (default directory). */
    private static void removeFabricLeftovers() {
        for (FabricProvider provider : Fabrics.providers()) {
            provider.removeLeftovers(Map.of());
        }
    }

    @Override
    public String toString() {
        return "WorkerProcess[" + name() + ", pid " + pid() + "]";
    }
}
