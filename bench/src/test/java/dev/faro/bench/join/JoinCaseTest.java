package dev.faro.bench.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.join.radix.PartitionAssignment;
import dev.faro.join.radix.RadixJoinConfig;
import dev.faro.join.workload.JoinWorkload;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The case's JSON round trip, the workloads by name and the configuration's refusals. */
class JoinCaseTest {

    @Test
    void aCaseSurvivesItsJsonUnchanged() {
        JoinCase joinCase = new JoinCase(
                true,
                true,
                3,
                new JoinWorkload(1234, 4, 0.5, 1.2, 9),
                RadixJoinConfig.defaults(2)
                        .withNetworkBits(7)
                        .withBuffers(3, 4096)
                        .withAssignment(PartitionAssignment.SORTED_ROUND_ROBIN),
                1,
                5,
                1 << 20,
                256L << 20);
        assertThat(JoinCase.fromJson(joinCase.toJson())).isEqualTo(joinCase);
    }

    @Test
    void workloadsAreKnownByName() {
        assertThat(JoinWorkloads.parse("1:8", 100, 2).outerRatio()).isEqualTo(8);
        assertThat(JoinWorkloads.parse("zipf1.20", 100, 2).zipf()).isEqualTo(1.20);
        assertThat(JoinWorkloads.assignment("zipf1.05")).isEqualTo(PartitionAssignment.SORTED_ROUND_ROBIN);
        assertThatThrownBy(() -> JoinWorkloads.parse("1:3", 100, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown workload '1:3'; known: 1:1");
    }

    @Test
    void badOptionsAreRefusedWithOneLine() {
        JoinBenchConfig base = JoinBenchConfig.defaults();
        assertThatThrownBy(
                        () -> base.with(null, List.of(0), null, null, null, null, null, null, null, null, null, null))
                .hasMessageStartingWith("--nodes must be in [1, 16]");
        assertThatThrownBy(() ->
                        base.with(null, null, null, List.of("zipf2"), null, null, null, null, null, null, null, null))
                .hasMessageStartingWith("unknown workload 'zipf2'");
        assertThatThrownBy(
                        () -> base.with(null, null, null, null, null, List.of(0), null, null, null, null, null, null))
                .hasMessageStartingWith("--buffers must be in [1, 16]");
        assertThatThrownBy(
                        () -> base.with(null, null, null, null, null, null, null, null, null, List.of(5L), null, null))
                .hasMessageStartingWith("--bandwidth-cap values must be 0 (none) or at least 1M");
    }

    @Test
    void strongScalingSplitsOneTotalOverTheNodesAndWeakKeepsThePerNodeSize() {
        JoinBenchConfig config = JoinBenchConfig.defaults()
                .with(null, List.of(1, 2, 4), null, null, 1_000_000L, null, null, null, null, null, null, null)
                .withScalings(List.of("weak", "strong"));
        assertThat(config.innerPerNode("weak", 2)).isEqualTo(1_000_000);
        assertThat(config.innerPerNode("strong", 4)).isEqualTo(1_000_000);
        assertThat(config.innerPerNode("strong", 2)).isEqualTo(2_000_000);
        assertThat(config.innerPerNode("strong", 1)).isEqualTo(4_000_000);
        assertThatThrownBy(() -> config.withScalings(List.of("linear")))
                .hasMessageStartingWith("--scaling must be weak, strong or both");
    }
}
