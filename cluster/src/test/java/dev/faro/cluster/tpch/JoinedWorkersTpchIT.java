package dev.faro.cluster.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.cluster.ClusterException;
import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.cluster.launch.WorkerLauncher;
import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.worker.WorkerMain;
import dev.faro.engine.tpch.Placement;
import dev.faro.fabric.net.NetFabricProvider;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TPC-H on workers that join a listening coordinator ({@link ClusterStart#joining}), as on several hosts, here on
 * loopback over the {@code net} fabric with the fabric secret each worker derives from the cluster secret (none is
 * configured): the coordinator reports the workers as they join; a worker killed between queries and replaced by
 * one started by hand reloads its share and the answers stay the same; a killed worker nobody replaces is named in
 * the error, which says the coordinator cannot start one on another host.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class JoinedWorkersTpchIT {

    private static final double SF = 0.01;
    private static final Duration JOIN = Duration.ofSeconds(90);

    @TempDir
    Path directory;

    private final List<Process> workers = new ArrayList<>();

    @AfterEach
    void killWorkers() {
        workers.forEach(Process::destroyForcibly);
    }

    @Test
    void joinedWorkersRunTpchAndALostOneIsNamedUnlessAnotherJoins() throws Exception {
        ClusterSecret secret = ClusterSecret.generate();
        Path secretFile = directory.resolve("secret");
        secret.writeFile(secretFile);
        ClusterConfig config = ClusterConfig.local(2)
                .withBind(ClusterConfig.LOOPBACK, 0)
                .withProvider(NetFabricProvider.NAME)
                .withProviderOption(NetFabricProvider.BIND_OPTION, WorkerMain.AUTO_ADDRESS)
                .withJoinTimeout(JOIN);
        List<String> progress = new CopyOnWriteArrayList<>();
        CompletableFuture<String> listening = new CompletableFuture<>();
        CompletableFuture<Coordinator> started =
                CompletableFuture.supplyAsync(() -> ClusterStart.joining(config, secret)
                        .start(line -> {
                            progress.add(line);
                            if (line.startsWith("listening on ")) {
                                listening.complete(line.split(" ")[2]);
                            }
                        }));
        String join = listening.get(60, TimeUnit.SECONDS);
        startWorker(join, secretFile);
        startWorker(join, secretFile);
        Coordinator coordinator = started.get(JOIN.toSeconds() + 30, TimeUnit.SECONDS);
        try (TpchSession session = TpchSession.load(
                coordinator, new TpchSettings(SF, Placement.RANDOM, 2, EndpointDesign.MESQ_SR), line -> {})) {
            assertThat(progress).contains("waiting for workers: 0 of 2 joined");
            for (Process worker : workers) {
                assertThat(progress)
                        .as("a line names worker %d", worker.pid())
                        .anyMatch(line ->
                                line.startsWith("waiting for workers: ") && line.contains(", pid " + worker.pid()));
            }
            List<List<Object>> answer = session.run(3).rows();
            assertThat(answer).isNotEmpty();

            int lost = kill(coordinator, workers.getFirst());
            startWorker(join, secretFile); // its replacement, started by hand: joins, reloads node's share
            assertThat(session.run(3).rows())
                    .as("Q3 after node %d was replaced by hand", lost)
                    .isEqualTo(answer);

            Process unreplaced = workers.get(1);
            int node = kill(coordinator, unreplaced);
            assertThatThrownBy(() -> coordinator.awaitWorkers(Duration.ofSeconds(2)))
                    .isInstanceOf(ClusterException.class)
                    .hasMessageContaining(
                            "node " + node + " has no worker since node " + node + " (pid " + unreplaced.pid() + " on ")
                    .hasMessageContaining(
                            "the coordinator cannot start one on another host: start one with --join " + join);
        }
    }

    /** Kills {@code worker} and waits until the coordinator lost it; returns its node. */
    private static int kill(Coordinator coordinator, Process worker) throws InterruptedException {
        int node = coordinator.workerPids().indexOf(worker.pid());
        assertThat(node).as("worker %d has a node", worker.pid()).isNotNegative();
        worker.destroyForcibly().waitFor();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (coordinator.workerPids().get(node) == worker.pid()) {
            assertThat(System.nanoTime() - deadline)
                    .as("the coordinator notices the loss")
                    .isNegative();
            Thread.sleep(20);
        }
        return node;
    }

    private void startWorker(String join, Path secretFile) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElseThrow(),
                        "-Xmx" + TpchSession.workerHeapMiB(2, SF) + "m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        WorkerLauncher.currentClassPath(),
                        WorkerMain.class.getName(),
                        "--join",
                        join,
                        "--secret-file",
                        secretFile.toString())
                .inheritIO();
        builder.environment().remove(ClusterSecret.ENVIRONMENT_VARIABLE);
        builder.environment().remove(NetFabricProvider.SECRET_ENVIRONMENT);
        workers.add(builder.start());
    }
}
