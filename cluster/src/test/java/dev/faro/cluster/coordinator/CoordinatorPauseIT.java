package dev.faro.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.cluster.testing.PausedCoordinatorMain;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator's own pause is not a worker's silence: a coordinator process stopped (SIGSTOP) for more than twice
 * its heartbeat timeout, then continued (SIGCONT), blames and replaces no worker, and its rounds go on with the same
 * workers. Durations are never asserted; the pause itself is the fault being injected.
 */
class CoordinatorPauseIT {

    /** The child's heartbeat timeout is 2 s; it is stopped for 5. */
    private static final long PAUSE_MILLIS = 5_000;

    @TempDir
    Path directory;

    @Test
    void aCoordinatorStoppedLongerThanTheHeartbeatTimeoutKeepsItsWorkers() throws Exception {
        Path shm = Files.createDirectory(directory.resolve("shm"));
        Path stderr = directory.resolve("coordinator.err");
        List<String> command = List.of(
                ProcessHandle.current().info().command().orElseThrow(),
                "-Xmx128m",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                PausedCoordinatorMain.class.getName(),
                shm.toString());
        Process coordinator =
                new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        try (BufferedReader output = new BufferedReader(
                        new InputStreamReader(coordinator.getInputStream(), StandardCharsets.UTF_8));
                Writer input = new OutputStreamWriter(coordinator.getOutputStream(), StandardCharsets.UTF_8)) {
            String before = nextRound(output);

            signal("STOP", coordinator.pid());
            Thread.sleep(PAUSE_MILLIS);
            signal("CONT", coordinator.pid());

            for (int round = 0; round < 20; round++) {
                assertThat(nextRound(output)).as("workers after the pause").isEqualTo(before);
            }
            input.write("stop\n");
            input.flush();
            assertThat(coordinator.waitFor(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            coordinator.destroyForcibly();
        }
        String log = Files.readString(stderr);
        assertThat(log)
                .doesNotContain("stopped answering heartbeats")
                .doesNotContain("starting a replacement")
                .contains("the workers are not blamed for the silence");
    }

    /** The pids of the next round's workers; fails on a failed round. */
    private static String nextRound(BufferedReader output) throws Exception {
        String line;
        while ((line = output.readLine()) != null) {
            if (line.startsWith("ROUND ")) {
                return line.substring("ROUND ".length());
            }
            assertThat(line).as("a round of the paused coordinator").doesNotStartWith("FAILED");
        }
        throw new AssertionError("the coordinator ended its output");
    }

    private static void signal(String name, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid))
                .inheritIO()
                .start();
        assertThat(kill.waitFor()).isZero();
    }
}
