package dev.faro.bench.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.cluster.coordinator.LocalCluster;
import dev.faro.cluster.coordinator.NodeAnswer;
import dev.faro.fabric.FaroException;
import dev.faro.join.radix.RadixJoinConfig;
import dev.faro.join.workload.JoinWorkload;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A worker JVM killed (SIGKILL) in the middle of a distributed radix hash join on three worker JVMs over shm: the
 * join fails on every node with one clear line naming the dead node, well within the case's timeout (no hang); then
 * the cluster (with a replacement worker) runs the next join correctly.
 */
class JoinKillIT {

    private static final int NODES = 3;
    private static final int VICTIM = 2;

    @Test
    void aKilledNodeFailsTheJoinOnEveryNodeWithAClearErrorAndNoHang() throws Exception {
        ClusterConfig config = ClusterConfig.local(NODES)
                .withWorkerHeap(JoinBenchmark.WORKER_HEAP)
                .withJvmOptions(JoinBenchmark.WORKER_JVM_OPTIONS)
                .withHeartbeat(Duration.ofSeconds(1), Duration.ofSeconds(10));
        try (Coordinator coordinator = LocalCluster.start(config)) {
            // an endless join: 500 runs of 500 k + 500 k tuples per node
            JoinCase endless = new JoinCase(
                    true,
                    false,
                    NODES,
                    JoinWorkload.uniform(500_000, 1, 1),
                    RadixJoinConfig.defaults(1).withNetworkBits(6),
                    0,
                    500,
                    0,
                    0);
            CountDownLatch connected = new CountDownLatch(1);
            coordinator.addExchangeListener((taskId, key, values) -> {
                if (key.endsWith("/rma-connected")) {
                    connected.countDown(); // every rank's group is open: the joins run from here on
                }
            });
            CompletableFuture<List<NodeAnswer>> join = CompletableFuture.supplyAsync(() -> coordinator.runOnEach(
                    NODES, JoinBenchHandler.TYPE, node -> endless.toJson(), JoinBenchmark.CASE_TIMEOUT));
            assertThat(connected.await(60, TimeUnit.SECONDS))
                    .as("the ranks connected")
                    .isTrue();
            Thread.sleep(1_000); // into the joins: each run of the 500 takes longer than a moment
            assertThat(join)
                    .as("the join is still running when the victim is killed")
                    .isNotDone();
            long pid = coordinator.workerPids().get(VICTIM);
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            long killed = System.nanoTime();
            List<NodeAnswer> answers = join.get(60, TimeUnit.SECONDS);
            Duration detection = Duration.ofNanos(System.nanoTime() - killed);
            for (NodeAnswer answer : answers) {
                assertThat(answer.succeeded())
                        .as("node %d's part of the join", answer.node())
                        .isFalse();
                System.err.println("[join kill] node " + answer.node() + ": "
                        + answer.failure().getMessage());
            }
            assertThat(detection).isLessThan(Duration.ofSeconds(30));
            assertThatThrownBy(() -> JoinBenchmark.replies(answers))
                    .isInstanceOf(FaroException.class)
                    .hasMessageStartingWith("node " + VICTIM + " failed the join: ")
                    .hasMessageContaining("died")
                    .hasMessageNotContaining("\n");
            System.err.println("[join kill] every node failed within " + detection.toMillis() + " ms of the kill");

            // the cluster carries on: a small join on every node, checked against the single-process join
            JoinCase small = new JoinCase(
                    true,
                    false,
                    NODES,
                    JoinWorkload.uniform(20_000, 2, 3),
                    RadixJoinConfig.defaults(1).withNetworkBits(5),
                    0,
                    1,
                    0,
                    0);
            List<?> replies = JoinBenchmark.answers(coordinator, NODES, small);
            assertThat(replies).hasSize(NODES);
            for (Object reply : replies) {
                assertThat(((com.fasterxml.jackson.databind.JsonNode) reply)
                                .path("runs")
                                .get(0)
                                .path("matches")
                                .asLong())
                        .isEqualTo(2 * 20_000L * NODES);
            }
        }
    }
}
