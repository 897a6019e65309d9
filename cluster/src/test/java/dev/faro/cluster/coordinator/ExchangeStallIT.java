package dev.faro.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.cluster.ClusterException;
import dev.faro.cluster.protocol.Json;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stall detection through the real runtime (two worker JVMs, the heartbeats relaying progress): an exchange where
 * nothing moves fails after the stall timeout, naming the exchange, the node that waits and the one it waits for,
 * while every worker stays alive and is kept; an exchange whose peer stays busy (progressing) for three stall
 * timeouts before it sends is no stall. Durations are never asserted.
 */
class ExchangeStallIT {

    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration ROUND = Duration.ofSeconds(120);

    @TempDir
    Path shmDirectory;

    @Test
    void aStalledExchangeFailsNamingItAndTheWorkersStay() {
        try (Coordinator cluster = LocalCluster.start(ClusterConfig.local(2)
                .withWorkerHeap("256m")
                .withExchangeStallTimeout(STALL_TIMEOUT)
                .withProviderOption("shm.directory", shmDirectory.toString()))) {
            var pids = cluster.workerPids();

            assertThatThrownBy(() -> cluster.runOnAll("stall", Json.object().put("busyMillis", 0), ROUND))
                    .isInstanceOfSatisfying(
                            ClusterException.class,
                            e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.TASK_FAILED))
                    .hasMessageContaining("node 0 (pid ")
                    .hasMessageContaining("exchange 3 (REPARTITION, shuffle stall-")
                    .hasMessageContaining(") at node 0: ")
                    .hasMessageContaining("no data arrived for 3 s with no progress anywhere in the query")
                    .hasMessageContaining("waiting for node 1");

            assertThat(cluster.runOnAll("echo", Json.object(), ROUND)).hasSize(2);
            assertThat(cluster.workerPids()).isEqualTo(pids);
        }
    }

    @Test
    void aPeerBusyForSeveralStallTimeoutsIsNoStall() {
        try (Coordinator cluster = LocalCluster.start(ClusterConfig.local(2)
                .withWorkerHeap("256m")
                .withExchangeStallTimeout(STALL_TIMEOUT)
                .withProviderOption("shm.directory", shmDirectory.toString()))) {
            long busyMillis = STALL_TIMEOUT.multipliedBy(3).toMillis();

            assertThat(cluster.runOnAll("stall", Json.object().put("busyMillis", busyMillis), ROUND))
                    .hasSize(2);
        }
    }
}
