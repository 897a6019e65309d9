package dev.faro.cluster.testing;

import dev.faro.cluster.TaskReply;
import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.cluster.coordinator.LocalCluster;
import dev.faro.cluster.protocol.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A coordinator process for a test to stop and continue from outside (SIGSTOP, SIGCONT): starts a local cluster of
 * two workers ({@code args[0]} is the shm directory) with a short heartbeat (250 ms, timeout 2 s), then runs
 * {@code echo} rounds back to back, printing {@code ROUND pid0 pid1} after each one (or {@code FAILED message}),
 * until a line arrives on standard input; then it closes the cluster and exits 0.
 */
public final class PausedCoordinatorMain {

    private PausedCoordinatorMain() {}

    public static void main(String[] args) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                input.readLine();
            } catch (Exception ignored) {
                // stop anyway
            }
            stop.set(true);
        });
        try (Coordinator cluster = LocalCluster.start(ClusterConfig.local(2)
                .withWorkerHeap("256m")
                .withHeartbeat(Duration.ofMillis(250), Duration.ofSeconds(2))
                .withProviderOption("shm.directory", args[0]))) {
            while (!stop.get()) {
                try {
                    List<TaskReply> replies = cluster.runOnAll("echo", Json.object(), Duration.ofSeconds(60));
                    System.out.println(
                            "ROUND " + replies.get(0).result().get("pid").asLong() + " "
                                    + replies.get(1).result().get("pid").asLong());
                } catch (RuntimeException e) {
                    System.out.println("FAILED " + e.getMessage());
                }
                System.out.flush();
                Thread.sleep(20);
            }
        }
        System.exit(0);
    }
}
