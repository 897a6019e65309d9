package dev.faro.bench.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.shuffle.endpoint.EndpointDesign;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A case that hangs past its deadline fails instead of hanging the caller: the cluster cancels it on every node, and
 * replaces the workers when the case does not end within the cancel grace (an endless stream never does); the next
 * case runs on the new workers. The runner has a short cancel grace of its own: {@link ShuffleRunner#CANCEL_GRACE}
 * is sized for survivors of a peer's death that notice it only by their stall timeout, which no case here has.
 */
class ShuffleDeadlineIT {

    private static final int NODES = 3;
    private static final Duration CANCEL_GRACE = Duration.ofSeconds(2);

    @Test
    void aCaseThatMissesItsDeadlineFailsAndItsWorkersAreReplaced() throws Exception {
        try (ShuffleRunner cluster =
                ShuffleRunner.start(NODES, CANCEL_GRACE, line -> System.err.println("[shuffle deadline] " + line))) {
            ShuffleCase endless = ShuffleKillIT.endlessCase(EndpointDesign.MEMQ_SR, ShuffleKillIT.Victim.RECEIVER);
            int restartsBefore = cluster.restarts();

            CaseOutcome outcome = cluster.launch(endless, Duration.ofSeconds(3)).await();

            for (int node = 0; node < NODES; node++) {
                assertThat(outcome.nodes().get(node))
                        .isInstanceOfSatisfying(
                                NodeOutcome.Failed.class,
                                failed -> assertThat(failed.category()).isEqualTo(NodeOutcome.DEADLINE));
            }
            CaseOutcome next =
                    cluster.run(ShuffleCase.of(EndpointDesign.MEMQ_SR, ShufflePattern.BROADCAST, NODES, 2, 1000));
            assertThat(next.problems()).isEmpty();
            assertThat(cluster.restarts() - restartsBefore)
                    .as("workers replaced")
                    .isEqualTo(NODES);
        }
    }
}
