package dev.faro.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.faro.cluster.ClusterException;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.protocol.Json;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Local clusters of worker JVMs: a real shuffle through the relayed exchange, a worker that dies mid-task (the round
 * fails with a message naming it, the next round runs on its replacement with the setup tasks replayed), a hung task
 * (cancelled, its worker replaced), what tasks left closed at shutdown, and no process left after close. Never
 * asserts durations.
 */
class LocalClusterIT {

    private static final Duration ROUND = Duration.ofSeconds(60);

    @TempDir
    Path shmDirectory;

    private ClusterConfig config(int nodes) {
        return ClusterConfig.local(nodes)
                .withWorkerHeap("256m")
                .withProviderOption("shm.directory", shmDirectory.toString())
                .withCancelGrace(Duration.ofSeconds(2));
    }

    @Test
    void workerProcessesRunTasksAndShuffleThroughTheRelayedExchange() {
        int nodes = 3;
        int rows = 50_000;
        try (Coordinator cluster = LocalCluster.start(config(nodes))) {
            List<TaskReply> echoes = cluster.runOnAll("echo", TextNode.valueOf("hi"), ROUND);
            List<Long> pids = echoes.stream()
                    .map(reply -> reply.result().get("pid").asLong())
                    .toList();
            assertThat(pids)
                    .doesNotHaveDuplicates()
                    .doesNotContain(ProcessHandle.current().pid());
            assertThat(pids).isEqualTo(cluster.workerPids());

            for (int shuffle = 0; shuffle < 2; shuffle++) {
                assertShuffleDeliversEverything(cluster, rows);
            }
        }
    }

    @Test
    void aWorkerThatDiesFailsTheRoundAndItsReplacementGetsTheSetupTasks() {
        try (Coordinator cluster = LocalCluster.start(config(2))) {
            cluster.addSetupTask("remember", node -> TextNode.valueOf("table-" + node), ROUND);
            List<Long> pidsBefore = cluster.workerPids();

            assertThatThrownBy(() -> cluster.runOnAll("halt", Json.object().put("node", 1), ROUND))
                    .isInstanceOfSatisfying(ClusterException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ClusterException.Kind.WORKER_DIED);
                        assertThat(e.node()).isEqualTo(1);
                    })
                    .hasMessage("node 1 (pid " + pidsBefore.get(1) + ") died with exit code 137 (signal 9)"
                            + " while running task 'halt'");

            List<TaskReply> echoes = cluster.runOnAll("echo", Json.object(), ROUND);
            assertThat(echoes.get(0).result().get("pid").asLong()).isEqualTo(pidsBefore.get(0));
            assertThat(echoes.get(1).result().get("pid").asLong()).isNotEqualTo(pidsBefore.get(1));
            assertThat(echoes.get(0).result().get("remembered")).containsExactly(TextNode.valueOf("table-0"));
            assertThat(echoes.get(1).result().get("remembered")).containsExactly(TextNode.valueOf("table-1"));

            assertShuffleDeliversEverything(cluster, 10_000);
        }
    }

    @Test
    void aHungTaskIsCancelledAndItsWorkerReplaced() {
        try (Coordinator cluster = LocalCluster.start(config(2))) {
            List<Long> pidsBefore = cluster.workerPids();

            assertThatThrownBy(() -> cluster.runOnAll("hang", Json.object().put("node", 0), Duration.ofSeconds(2)))
                    .isInstanceOfSatisfying(
                            ClusterException.class, e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.TIMEOUT))
                    .hasMessageContaining(
                            "task 'hang' did not finish within 2000 ms on node 0 (pid " + pidsBefore.get(0) + ")");

            List<TaskReply> echoes = cluster.runOnAll("echo", Json.object(), ROUND);
            assertThat(echoes.get(0).result().get("pid").asLong()).isNotEqualTo(pidsBefore.get(0));
            assertThat(echoes.get(1).result().get("pid").asLong()).isEqualTo(pidsBefore.get(1));
        }
    }

    @Test
    void aWorkerThatCannotStartFailsTheStartWithItsErrorLine() {
        assertThatThrownBy(() -> LocalCluster.start(
                        config(1).withClassPath(shmDirectory.resolve("nothing").toString())))
                .isInstanceOfSatisfying(
                        ClusterException.class,
                        e -> assertThat(e.kind()).isEqualTo(ClusterException.Kind.NODE_UNAVAILABLE))
                .hasMessageStartingWith("the worker for node 0 (pid ")
                .hasMessageContaining("before it joined; its last error line: ")
                .hasMessageContaining("WorkerMain");
    }

    /** What tasks leave for later tasks is closed when the worker's session ends (a transport's files, say). */
    @Test
    void aWorkerClosesWhatTasksLeftWhenTheClusterShutsDown() {
        Path file = shmDirectory.resolve("held-by-node-0");
        try (Coordinator cluster = LocalCluster.start(config(1))) {
            cluster.runOnAll("hold-file", TextNode.valueOf(file.toString()), ROUND);
            assertThat(file).exists();
        }
        assertThat(file).doesNotExist();
    }

    @Test
    void closeLeavesNoWorkerProcess() {
        List<Long> pids;
        try (Coordinator cluster = LocalCluster.start(config(2))) {
            pids = cluster.workerPids();
            cluster.runOnAll("echo", Json.object(), ROUND);
        }
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .as("worker pid %d alive after close", pid)
                    .isFalse();
        }
    }

    private static void assertShuffleDeliversEverything(Coordinator cluster, int rows) {
        int nodes = cluster.nodes();
        List<TaskReply> replies = cluster.runOnAll("shuffle", Json.object().put("rows", rows), ROUND);
        long received = replies.stream()
                .mapToLong(reply -> reply.result().get("received").asLong())
                .sum();
        long sum = replies.stream()
                .mapToLong(reply -> reply.result().get("sum").asLong())
                .sum();
        long expectedSum = IntStream.range(0, nodes)
                .mapToLong(node -> node * 1_000_000_000L * rows + (long) rows * (rows - 1) / 2)
                .sum();
        assertThat(received).isEqualTo((long) nodes * rows);
        assertThat(sum).isEqualTo(expectedSum);
        assertThat(replies)
                .allSatisfy(reply ->
                        assertThat(reply.result().get("received").asLong()).isPositive());
    }
}
