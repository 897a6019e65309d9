package dev.faro.cli;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * {@code faro} in a child JVM ({@link FaroCommand#main} with this JVM's class path), for what only a real process
 * shows: its exit code, signals, its standard output going to a file. Collects its standard error lines.
 */
final class FaroProcess implements AutoCloseable {

    private final Process process;
    private final List<String> stderr = new ArrayList<>();
    /** Whether standard error reached its end. Guarded by {@code stderr}. */
    private boolean drained;

    private FaroProcess(Process process) {
        this.process = process;
        Thread.ofVirtual().start(this::readErrors);
    }

    /** Starts {@code faro args}, its standard output going to {@code stdout}. */
    static FaroProcess start(File stdout, String... args) throws IOException {
        return start(stdout, List.of(), "256m", args);
    }

    /**
     * Starts {@code faro args} with a heap of {@code heap} behind the command {@code prefix} (e.g. {@code ip netns
     * exec NS}), its standard output going to {@code stdout}. The child never inherits {@code $FARO_CLUSTER_SECRET}.
     */
    static FaroProcess start(File stdout, List<String> prefix, String heap, String... args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(
                ProcessHandle.current().info().command().orElseThrow(),
                "-Xmx" + heap,
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                FaroCommand.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(stdout);
        builder.environment().remove(dev.faro.cluster.protocol.ClusterSecret.ENVIRONMENT_VARIABLE);
        return new FaroProcess(builder.start());
    }

    Process process() {
        return process;
    }

    /** Waits until a standard error line matches; fails with what was printed when the process ends first. */
    void awaitLine(Predicate<String> line, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        synchronized (stderr) {
            while (stderr.stream().noneMatch(line)) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !process.isAlive() && stderr.stream().noneMatch(line)) {
                    throw new AssertionError("faro did not print the expected line; it printed: " + stderr);
                }
                stderr.wait(Math.max(1, Math.min(100, TimeUnit.NANOSECONDS.toMillis(left))));
            }
        }
    }

    /** Waits for the exit code. */
    int exit(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new AssertionError("faro did not exit; it printed: " + stderr());
        }
        return process.exitValue();
    }

    /**
     * Starts {@code count} {@code faro worker --join} processes (output to {@code worker-i.out} in {@code directory})
     * once {@code coordinator} says where it listens; adds each to {@code workers} as it starts, so the caller closes
     * those started before a failure.
     */
    static void joinWorkers(
            FaroProcess coordinator, int count, Path secretFile, Path directory, List<FaroProcess> workers)
            throws IOException, InterruptedException {
        String join = coordinator.awaitListeningAddress(120);
        for (int i = 0; i < count; i++) {
            workers.add(start(
                    directory.resolve("worker-" + i + ".out").toFile(),
                    "worker",
                    "--join",
                    join,
                    "--secret-file",
                    secretFile.toString()));
        }
    }

    /** The {@code HOST:PORT} of a coordinator's {@code listening on HOST:PORT ...} line, once it printed one. */
    String awaitListeningAddress(long timeoutSeconds) throws InterruptedException {
        awaitLine(line -> line.startsWith("listening on "), timeoutSeconds);
        return stderr().stream()
                .filter(line -> line.startsWith("listening on "))
                .findFirst()
                .orElseThrow()
                .split(" ")[2];
    }

    /** The standard error lines so far (all of them once {@link #exit} returned and the pipe drained). */
    List<String> stderr() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        synchronized (stderr) {
            while (!drained && System.nanoTime() - deadline < 0 && !process.isAlive()) {
                stderr.wait(50);
            }
            return List.copyOf(stderr);
        }
    }

    private void readErrors() {
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                synchronized (stderr) {
                    stderr.add(line);
                    stderr.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process is gone
        } finally {
            synchronized (stderr) {
                drained = true;
                stderr.notifyAll();
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
