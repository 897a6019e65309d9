package dev.faro.fabric;

import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The parent's handle on a {@link FabricPeerMain} child JVM: starts it with this JVM's java and class path, sends
 * commands, waits (bounded) for replies, and stops, kills or closes it. Replies are read by a daemon thread into a
 * queue so that every wait can be bounded.
 */
public final class PeerProcess implements AutoCloseable {

    /** How long to wait for a reply: a child JVM starting on a loaded 2-core machine can be slow. */
    static final Duration REPLY_WAIT = Duration.ofSeconds(60);

    private static final Duration EXIT_WAIT = Duration.ofSeconds(15);
    private static final String END_OF_OUTPUT = new String("<end of child output>");
    private static final HexFormat HEX = HexFormat.of();

    private final String name;
    private final Process process;
    private final Writer stdin;
    private final Path log;
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
    private final long node;
    private boolean killed;

    private PeerProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.stdin = process.outputWriter(StandardCharsets.UTF_8);
        Thread.ofPlatform().daemon().name("peer-" + name + "-stdout").start(() -> {
            try (BufferedReader reader = process.inputReader(StandardCharsets.UTF_8)) {
                String line;
                while ((line = reader.readLine()) != null) {
                    replies.add(line);
                }
            } catch (IOException ignored) {
                // the child died: END_OF_OUTPUT tells the waiter
            } finally {
                replies.add(END_OF_OUTPUT);
            }
        });
        String[] ready = expect("READY");
        this.node = Long.parseUnsignedLong(ready[1], 16);
    }

    /** Starts a child JVM that opens a node with {@code config} and answers READY. */
    public static PeerProcess start(FabricConfig config) throws IOException {
        return start(config, List.of());
    }

    /**
     * Starts a child JVM, its command line prefixed with {@code commandPrefix} (e.g. {@code ip netns exec NAME}, to run
     * it in another network namespace), that opens a node with {@code config} and answers READY.
     */
    public static PeerProcess start(FabricConfig config, List<String> commandPrefix) throws IOException {
        List<String> command = new ArrayList<>(commandPrefix);
        command.add(ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-XX:+UseSerialGC");
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(FabricPeerMain.class.getName());
        command.addAll(FabricPeerMain.arguments(config));
        Path log = Files.createTempFile("faro-peer-" + config.nodeName() + "-", ".log");
        Process process =
                new ProcessBuilder(command).redirectError(log.toFile()).start();
        try {
            return new PeerProcess(config.nodeName(), process, log);
        } catch (RuntimeException | Error e) {
            process.destroyForcibly();
            throw e;
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    /** The child's fabric node id. */
    public long node() {
        return node;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Sends one command line without waiting. */
    public void send(String command) {
        try {
            stdin.write(command);
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            throw new AssertionError(
                    "cannot talk to child " + name + " (alive=" + process.isAlive() + "): " + e + log(), e);
        }
    }

    /** Sends a command and waits for the reply that starts with {@code replyWord}; returns the reply's words. */
    public String[] call(String command, String replyWord) {
        send(command);
        return expect(replyWord);
    }

    /** Waits (bounded by {@link #REPLY_WAIT}) for the next reply, which must start with {@code replyWord}. */
    public String[] expect(String replyWord) {
        return expect(replyWord, REPLY_WAIT);
    }

    public String[] expect(String replyWord, Duration bound) {
        String line;
        try {
            line = replies.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + replyWord + " from child " + name, e);
        }
        if (line == null) {
            fail("child %s did not answer %s within %s%s", name, replyWord, bound, log());
        }
        if (line == END_OF_OUTPUT) {
            replies.add(END_OF_OUTPUT);
            fail("child %s ended (alive=%s) before answering %s%s", name, process.isAlive(), replyWord, log());
        }
        String[] words = line.split(" ");
        if (!words[0].equals(replyWord)) {
            fail("child %s answered '%s' instead of %s%s", name, line, replyWord, log());
        }
        return words;
    }

    /** SIGKILL, and wait (bounded) until the process is gone and reaped. */
    public void kill() throws InterruptedException {
        killed = true;
        process.destroyForcibly();
        if (!process.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            fail("child %s (pid %d) still alive %s after SIGKILL", name, process.pid(), EXIT_WAIT);
        }
    }

    /**
     * Sends a signal such as STOP or CONT with the system's {@code kill} command. After STOP, waits (bounded) until
     * every thread of the child is stopped: {@code kill} returns once the signal is sent, and on a busy machine a
     * thread of the child (its fabric's progress thread, say) can still run for a while after that.
     */
    public void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                .redirectErrorStream(true)
                .start();
        if (!kill.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
            kill.destroyForcibly();
            fail(
                    "kill -%s %d failed: %s",
                    signal, process.pid(), new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
        if (signal.equals("STOP")) {
            awaitStopped();
        }
    }

    /** Waits until every thread of the child is stopped, as {@code /proc/<pid>/task/<tid>/stat} says (Linux). */
    private void awaitStopped() throws IOException, InterruptedException {
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        if (!Files.isDirectory(tasks)) {
            return; // no procfs here: kill alone has to do
        }
        long deadlineNs = System.nanoTime() + EXIT_WAIT.toNanos();
        while (!allThreadsStopped(tasks)) {
            if (System.nanoTime() - deadlineNs > 0) {
                fail("child %s (pid %d) still running %s after SIGSTOP", name, process.pid(), EXIT_WAIT);
            }
            TimeUnit.MILLISECONDS.sleep(1);
        }
    }

    private static boolean allThreadsStopped(Path tasks) throws IOException {
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                String stat;
                try {
                    stat = Files.readString(thread.resolve("stat"));
                } catch (NoSuchFileException exited) {
                    continue;
                }
                // "tid (name) state ...": the name may hold spaces and parentheses, the state follows the last ')'
                char state = stat.charAt(stat.lastIndexOf(')') + 2);
                if ("TtZX".indexOf(state) < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    public static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    public static byte[] unhex(String hex) {
        return HEX.parseHex(hex);
    }

    /**
     * Asks the child to close its node and exit; kills it if it does not within a bound. Returns a problem
     * description (child did not exit cleanly), or null. The child's stderr is printed when it has any.
     */
    public String closeAndDescribeProblems() {
        String problem = null;
        try {
            if (process.isAlive()) {
                try {
                    stdin.write("EXIT\n");
                    stdin.close();
                } catch (IOException ignored) {
                    // it is dying anyway
                }
                if (!process.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    problem = "child " + name + " did not exit within " + EXIT_WAIT + " after EXIT (killed)";
                    process.destroyForcibly();
                    process.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
            if (problem == null && !killed && process.exitValue() != 0) {
                problem = "child " + name + " exited with status " + process.exitValue();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            problem = "interrupted while closing child " + name;
        } finally {
            String output = log();
            if (!output.isEmpty()) {
                System.err.println(output);
            }
            try {
                Files.deleteIfExists(log);
            } catch (IOException ignored) {
                // a temp file
            }
        }
        return problem;
    }

    @Override
    public void close() {
        String problem = closeAndDescribeProblems();
        if (problem != null) {
            throw new AssertionError(problem);
        }
    }

    /** The child's stderr so far, formatted for a failure message (empty when it wrote nothing). */
    private String log() {
        try {
            String text = Files.exists(log) ? Files.readString(log) : "";
            return text.isBlank() ? "" : "\n--- stderr of child " + name + " ---\n" + text.strip() + "\n---";
        } catch (IOException e) {
            return "\n(cannot read the child's stderr: " + e + ")";
        }
    }
}
