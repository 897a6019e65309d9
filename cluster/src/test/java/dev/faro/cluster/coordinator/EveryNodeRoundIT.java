package dev.faro.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.cluster.ClusterException;
import dev.faro.cluster.protocol.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Coordinator#runOnEach}: a round over the first k nodes of a larger cluster (contexts and all-gathers count
 * k), every node's answer collected even when one fails (the others are cancelled and answer too), and the
 * exchange listener told about each completed all-gather. Never asserts durations.
 */
class EveryNodeRoundIT {

    private static final Duration ROUND = Duration.ofSeconds(60);

    @TempDir
    Path shmDirectory;

    @Test
    void aRoundOverTheFirstNodesAnswersEveryNodeAndReportsItsExchanges() {
        ClusterConfig config = ClusterConfig.local(3)
                .withWorkerHeap("256m")
                .withProviderOption("shm.directory", shmDirectory.toString())
                .withCancelGrace(Duration.ofSeconds(10));
        try (Coordinator cluster = LocalCluster.start(config)) {
            Map<String, byte[][]> exchanged = new ConcurrentHashMap<>();
            cluster.addExchangeListener((taskId, key, values) -> exchanged.put(key, values));

            List<NodeAnswer> gathered =
                    cluster.runOnEach(2, "gather", node -> Json.object().put("keys", 1), ROUND);

            assertThat(gathered).hasSize(2).allMatch(NodeAnswer::succeeded);
            for (NodeAnswer answer : gathered) {
                assertThat(answer.reply().result().get(0).asText()).isEqualTo("k0:n0,k0:n1");
            }
            assertThat(exchanged).containsKey("key-0");
            assertThat(new String(exchanged.get("key-0")[1], StandardCharsets.UTF_8))
                    .isEqualTo("k0:n1");

            List<NodeAnswer> failed = cluster.runOnEach(
                    3, "fail", node -> Json.object().put("node", 1).put("gather", true), ROUND);

            assertThat(failed).hasSize(3).noneMatch(NodeAnswer::succeeded);
            assertThat(failed.get(1).failure().kind()).isEqualTo(ClusterException.Kind.TASK_FAILED);
            assertThat(failed.get(1).failure().getMessage()).contains("deliberate failure on node 1");
            for (int node : new int[] {0, 2}) {
                assertThat(failed.get(node).failure().kind())
                        .as("node %d", node)
                        .isEqualTo(ClusterException.Kind.TASK_FAILED);
                assertThat(failed.get(node).failure().getMessage())
                        .as("node %d", node)
                        .contains("after its cancel");
            }

            assertThat(cluster.runOnEach(3, "gather", node -> Json.object().put("keys", 2), ROUND))
                    .allMatch(NodeAnswer::succeeded);
        }
    }
}
