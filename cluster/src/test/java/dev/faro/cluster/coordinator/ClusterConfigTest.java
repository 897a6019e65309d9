package dev.faro.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code with*} methods change only their own fields, and the constructor checks what they set. */
class ClusterConfigTest {

    @Test
    void theReplaceTimeoutIsTheJoinTimeoutUnlessSetApartInEitherOrder() {
        ClusterConfig config = ClusterConfig.local(2).withJoinTimeout(Duration.ofSeconds(20));
        assertThat(config.replaceTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(config.readyTimeout()).isEqualTo(Duration.ofSeconds(20).plus(config.cancelGrace()));

        ClusterConfig apart = config.withReplaceTimeout(Duration.ofSeconds(3));
        assertThat(apart.joinTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(apart.replaceTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(ClusterConfig.local(2)
                        .withReplaceTimeout(Duration.ofSeconds(3))
                        .withJoinTimeout(Duration.ofSeconds(20)))
                .as("a join timeout set after leaves the replace timeout")
                .isEqualTo(apart);

        ClusterConfig longer = config.withReplaceTimeout(Duration.ofMinutes(10));
        assertThat(longer.readyTimeout())
                .as("a round waits for the longer of the two")
                .isEqualTo(Duration.ofMinutes(10).plus(config.cancelGrace()));
    }

    @Test
    void aWithMethodKeepsEveryOtherField() {
        ClusterConfig apart = ClusterConfig.local(2).withReplaceTimeout(Duration.ofSeconds(3));
        assertThat(apart.withNodes(3))
                .isEqualTo(new ClusterConfig(
                        3,
                        apart.provider(),
                        apart.providerOptions(),
                        apart.fabricPeerTimeout(),
                        apart.workerHeap(),
                        apart.jvmOptions(),
                        apart.classPath(),
                        apart.bindAddress(),
                        apart.port(),
                        apart.joinTimeout(),
                        apart.replaceTimeout(),
                        apart.heartbeatInterval(),
                        apart.heartbeatTimeout(),
                        apart.cancelGrace(),
                        apart.exchangeTimeout(),
                        apart.exchangeStallTimeout(),
                        apart.forwardWorkerOutput()));
    }

    @Test
    void aProviderOptionIsAddedToACopyOfTheOthers() {
        ClusterConfig one = ClusterConfig.local(1).withProviderOption("a", "1");
        ClusterConfig two = one.withProviderOption("b", "2");
        assertThat(one.providerOptions()).isEqualTo(Map.of("a", "1"));
        assertThat(two.providerOptions()).isEqualTo(Map.of("a", "1", "b", "2"));
    }

    @Test
    void theWithMethodsAreChecked() {
        assertThatThrownBy(() -> ClusterConfig.local(1).withReplaceTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("replaceTimeout must be positive: replaceTimeout=PT0S");
        assertThatThrownBy(() -> ClusterConfig.local(1).withHeartbeat(Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("heartbeatTimeout must be at least twice heartbeatInterval");
    }
}
