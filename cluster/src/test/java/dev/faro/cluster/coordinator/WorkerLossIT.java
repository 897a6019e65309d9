package dev.faro.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.cluster.ClusterException;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.testing.CrashingCoordinatorMain;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Losing workers outside a round and losing the coordinator: an idle worker killed from outside is replaced before
 * the next round, a stopped (SIGSTOP) worker is given up after the heartbeat timeout, and workers of a coordinator
 * that crashed exit by themselves. Bounds are generous (30 s); durations are never asserted.
 */
class WorkerLossIT {

    private static final Duration ROUND = Duration.ofSeconds(60);
    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(30);

    @TempDir
    Path shmDirectory;

    private ClusterConfig config(int nodes) {
        return ClusterConfig.local(nodes)
                .withWorkerHeap("256m")
                .withProviderOption("shm.directory", shmDirectory.toString());
    }

    @Test
    void anIdleWorkerKilledFromOutsideIsReplacedBeforeTheNextRound() throws Exception {
        try (Coordinator cluster = LocalCluster.start(config(2))) {
            long victim = cluster.workerPids().get(0);
            ProcessHandle.of(victim).orElseThrow().destroyForcibly();

            long deadline = System.nanoTime() + PATIENCE_NANOS;
            while (cluster.workerPids().get(0) == victim && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            List<TaskReply> echoes = cluster.runOnAll("echo", Json.object(), ROUND);
            assertThat(echoes.get(0).result().get("pid").asLong()).isNotEqualTo(victim);
        }
    }

    @Test
    void aStoppedWorkerIsGivenUpAfterTheHeartbeatTimeoutAndReplaced() throws Exception {
        try (Coordinator cluster =
                LocalCluster.start(config(2).withHeartbeat(Duration.ofMillis(250), Duration.ofSeconds(2)))) {
            long stopped = cluster.workerPids().get(1);
            Process stop = new ProcessBuilder("kill", "-STOP", Long.toString(stopped))
                    .inheritIO()
                    .start();
            assertThat(stop.waitFor()).isZero();

            assertThatThrownBy(() -> cluster.runOnAll("echo", Json.object(), ROUND))
                    .isInstanceOfSatisfying(
                            ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.WORKER_UNRESPONSIVE))
                    .hasMessageStartingWith("node 1 (pid " + stopped + ") stopped answering heartbeats for ")
                    .hasMessageEndingWith(" while running task 'echo'");

            List<TaskReply> echoes = cluster.runOnAll("echo", Json.object(), ROUND);
            assertThat(echoes.get(1).result().get("pid").asLong()).isNotEqualTo(stopped);
            assertThat(ProcessHandle.of(stopped).map(ProcessHandle::isAlive).orElse(false))
                    .isFalse();
        }
    }

    @Test
    void workersExitWhenTheirCoordinatorCrashes() throws Exception {
        List<String> command = List.of(
                ProcessHandle.current().info().command().orElseThrow(),
                "-Xmx128m",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                CrashingCoordinatorMain.class.getName(),
                shmDirectory.toString());
        Process coordinator = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        List<Long> pids = new ArrayList<>();
        try (BufferedReader output =
                new BufferedReader(new InputStreamReader(coordinator.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = output.readLine()) != null) {
                if (line.startsWith("PIDS ")) {
                    for (String pid : line.substring(5).split(" ")) {
                        pids.add(Long.parseLong(pid));
                    }
                }
            }
        }
        assertThat(coordinator.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(pids).hasSize(2);

        for (long pid : pids) {
            Optional<ProcessHandle> worker = ProcessHandle.of(pid);
            if (worker.isPresent()) {
                worker.get().onExit().get(30, TimeUnit.SECONDS);
            }
        }
    }
}
