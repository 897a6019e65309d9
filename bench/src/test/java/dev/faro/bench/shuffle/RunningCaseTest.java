package dev.faro.bench.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.faro.cluster.ClusterException;
import dev.faro.cluster.ClusterException.Kind;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.coordinator.NodeAnswer;
import dev.faro.fabric.FaroException.Category;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a {@link RunningCase} turns the cluster round's answers into node outcomes: a reply is the node's result, a
 * task failure keeps the worker's category, a round timeout is {@code DEADLINE}, a lost worker is {@code WORKER}; a
 * round that could not start fails every node. Started: the exchange listener's values are the fabric node ids.
 */
class RunningCaseTest {

    private final ShuffleCase shuffleCase =
            ShuffleCase.of(EndpointDesign.MEMQ_SR, ShufflePattern.REPARTITION, 4, 1, 100);

    private RunningCase running() {
        return new RunningCase(shuffleCase, ShuffleTuples.expected(shuffleCase), 7);
    }

    @Test
    void answersBecomeNodeOutcomes() throws Exception {
        RunningCase running = running();
        NodeResult result = new NodeResult(100, 42, 0, 1600, 5_000, 0);
        running.answers()
                .complete(List.of(
                        new NodeAnswer(
                                0,
                                TaskReply.of(
                                        JsonNodeFactory.instance.objectNode().put("result", result.encode())),
                                null,
                                11),
                        failed(1, Kind.TASK_FAILED, Category.NETWORK, "node 1 (pid 9) failed task: peer died", 12),
                        failed(2, Kind.TIMEOUT, Category.TIMEOUT, "node 2 (pid 10): did not finish", 13),
                        failed(3, Kind.WORKER_DIED, Category.NETWORK, "node 3 (pid 11) died with exit code 137", 14)));

        assertThat(running.isDone()).isTrue();
        CaseOutcome outcome = running.await();

        assertThat(outcome.nodes().get(0)).isEqualTo(new NodeOutcome.Finished(result, 11));
        assertThat(outcome.nodes().get(1))
                .isEqualTo(new NodeOutcome.Failed("NETWORK", "node 1 (pid 9) failed task: peer died", 12));
        assertThat(outcome.nodes().get(2))
                .isEqualTo(new NodeOutcome.Failed(NodeOutcome.DEADLINE, "node 2 (pid 10): did not finish", 13));
        assertThat(outcome.nodes().get(3))
                .isEqualTo(new NodeOutcome.Failed(NodeOutcome.WORKER, "node 3 (pid 11) died with exit code 137", 14));
    }

    @Test
    void aRoundThatCouldNotStartFailsEveryNode() throws Exception {
        RunningCase running = running();
        running.answers()
                .completeExceptionally(new ClusterException(
                        Kind.NODE_UNAVAILABLE, Category.NETWORK, 2, "the worker for node 2 exited before it joined"));

        CaseOutcome outcome = running.await();

        assertThat(outcome.failures()).hasSize(4).allSatisfy((node, failed) -> {
            assertThat(failed.category()).isEqualTo(NodeOutcome.WORKER);
            assertThat(failed.message()).isEqualTo("the worker for node 2 exited before it joined");
        });
    }

    @Test
    void startedCarriesTheFabricNodeIds() throws Exception {
        RunningCase running = running();
        assertThat(running.awaitStarted(Duration.ofMillis(1))).isFalse();

        running.onStarted(new byte[][] {
            "00000000000000a0".getBytes(),
            "00000000000000a1".getBytes(),
            "00000000000000a2".getBytes(),
            "00000000000000a3".getBytes()
        });

        assertThat(running.awaitStarted(Duration.ofSeconds(10))).isTrue();
        assertThat(running.fabricNode(2)).isEqualTo("00000000000000a2");
        assertThat(NodeShuffle.startedKey(running.caseId())).isEqualTo("case-7/started");
    }

    private static NodeAnswer failed(int node, Kind kind, Category category, String message, long atNanos) {
        return new NodeAnswer(node, null, new ClusterException(kind, category, node, message), atNanos);
    }
}
