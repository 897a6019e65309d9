package dev.faro.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.faro.cluster.ClusterException;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.worker.TaskHandlers;
import dev.faro.cluster.worker.WorkerMain;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator with workers served inside this JVM ({@link WorkerMain#serve} on threads, {@code shm} nodes in one
 * process): rounds, replies by node, concurrent all-gathers, task failures and a refused secret. The multi-process
 * behaviour (death, replacement, cancel of a hung task) is in {@code LocalClusterIT}.
 */
class CoordinatorTest {

    private static final Duration ROUND = Duration.ofSeconds(30);
    private static final int NODES = 2;

    @TempDir
    Path shmDirectory;

    private final ClusterSecret secret = ClusterSecret.generate();
    private Coordinator coordinator;
    private final List<CompletableFuture<Integer>> workers = new ArrayList<>();

    @BeforeEach
    void start() {
        coordinator = Coordinator.listen(
                ClusterConfig.local(NODES).withProviderOption("shm.directory", shmDirectory.toString()), secret);
        for (int i = 0; i < NODES; i++) {
            workers.add(serveWorker(secret));
        }
        coordinator.awaitWorkers(Duration.ofSeconds(30));
    }

    private CompletableFuture<Integer> serveWorker(ClusterSecret workerSecret) {
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        Thread.ofPlatform()
                .daemon()
                .name("in-jvm-worker")
                .start(() -> exit.complete(
                        WorkerMain.serve(coordinator.joinAddress(), workerSecret, -1, TaskHandlers.load())));
        return exit;
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        for (CompletableFuture<Integer> worker : workers) {
            assertThat(worker.get()).as("worker exit code after SHUTDOWN").isZero();
        }
    }

    @Test
    void everyNodeAnswersAtItsIndex() {
        List<TaskReply> replies = coordinator.runOnAll("echo", node -> TextNode.valueOf("hello " + node), ROUND);

        assertThat(replies).hasSize(NODES);
        for (int node = 0; node < NODES; node++) {
            assertThat(replies.get(node).result().get("node").asInt()).isEqualTo(node);
            assertThat(replies.get(node).result().get("nodes").asInt()).isEqualTo(NODES);
            assertThat(replies.get(node).result().get("payload").asText()).isEqualTo("hello " + node);
            assertThat(new String(replies.get(node).payload(), StandardCharsets.UTF_8))
                    .isEqualTo("node " + node);
        }
    }

    @Test
    void concurrentAllGathersOfOneTaskMeetByKey() {
        int keys = 6;
        List<TaskReply> replies = coordinator.runOnAll("gather", Json.object().put("keys", keys), ROUND);

        for (TaskReply reply : replies) {
            for (int key = 0; key < keys; key++) {
                assertThat(reply.result().get(key).asText()).isEqualTo("k" + key + ":n0,k" + key + ":n1");
            }
        }
    }

    @Test
    void aFailingTaskNamesTheNodeAndTheNextRoundWorks() {
        assertThatThrownBy(() -> coordinator.runOnAll("fail", Json.object().put("node", 1), ROUND))
                .isInstanceOfSatisfying(ClusterException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ClusterException.Kind.TASK_FAILED);
                    assertThat(e.node()).isEqualTo(1);
                })
                .hasMessageContaining("node 1 (pid ")
                .hasMessageContaining("failed task 'fail'")
                .hasMessageContaining("deliberate failure on node 1");

        assertThat(coordinator.runOnAll("echo", Json.object(), ROUND)).hasSize(NODES);
    }

    @Test
    void aFailureCancelsTheOtherNodesAndFailsTheirPendingAllGatherWithNetwork() {
        assertThatThrownBy(() -> coordinator.runOnAll(
                        "fail", Json.object().put("node", 1).put("gather", true), ROUND))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("deliberate failure on node 1");

        List<TaskReply> echoes = coordinator.runOnAll("echo", Json.object(), ROUND);
        assertThat(echoes.get(0).result().get("lastFailure").asText())
                .startsWith("NETWORK ")
                .contains("exchange 'never-complete'")
                .contains("node 1 (pid ");
    }

    @Test
    void anUnknownTaskTypeIsATaskFailure() {
        assertThatThrownBy(() -> coordinator.runOnAll("no-such-task", Json.object(), ROUND))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("no handler for task type 'no-such-task'")
                .hasMessageContaining("echo");
    }

    @Test
    void aWorkerWithTheWrongSecretIsRefusedAndChangesNothing() throws Exception {
        List<Long> pidsBefore = coordinator.workerPids();

        int exit = WorkerMain.serve(
                coordinator.joinAddress(), ClusterSecret.of("not the secret"), -1, TaskHandlers.load());

        assertThat(exit).as("exit code of a refused worker").isEqualTo(2);
        assertThat(coordinator.workerPids()).isEqualTo(pidsBefore);
        assertThat(coordinator.runOnAll("echo", Json.object(), ROUND)).hasSize(NODES);
    }

    @Test
    void aWorkerBeyondTheNodeCountIsRefused() {
        int exit = WorkerMain.serve(coordinator.joinAddress(), secret, -1, TaskHandlers.load());

        assertThat(exit).isEqualTo(2);
        assertThat(coordinator.runOnAll("echo", Json.object(), ROUND)).hasSize(NODES);
    }
}
