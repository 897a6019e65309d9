package dev.faro.join.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The model against the thesis's own numbers (Table 4.2, §3.5) as the digest derives them. */
class RadixJoinModelTest {

    private static final double M = 1e6;

    /** Table 4.2: 1,024 cores (128 nodes x 8), 40 M + 40 M tuples per core, Cray rates. */
    @Test
    void reproducesTheModelColumnOfTable42() {
        long perRelation = 40_000_000L * 1024;
        RadixJoinModel model =
                new RadixJoinModel(128, 8, perRelation, perRelation, 225 * M, 120 * M, 120 * M, 210 * M, 1560 * M, 2);
        assertThat(model.histogramSeconds()).isCloseTo(0.36, within(0.01));
        assertThat(model.networkBound()).isFalse();
        assertThat(model.networkPassSeconds()).isCloseTo(0.67, within(0.01));
        assertThat(model.localPassSeconds()).isCloseTo(0.67, within(0.01));
        assertThat(model.buildProbeSeconds()).isCloseTo(0.38, within(0.01));
        assertThat(model.totalSeconds()).isCloseTo(2.08, within(0.02));
    }

    /** §3.5: with 8 threads and 8-byte tuples, QDR (450 M/s) is network-bound from 3 machines, FDR (750 M/s) from 7. */
    @Test
    void theComputeToNetworkBoundCrossoverOfEquation33() {
        for (int nodes = 2; nodes <= 10; nodes++) {
            RadixJoinModel qdr = new RadixJoinModel(nodes, 8, 1, 1, M, 110 * M, 110 * M, M, 450 * M, 2);
            RadixJoinModel fdr = new RadixJoinModel(nodes, 8, 1, 1, M, 110 * M, 110 * M, M, 750 * M, 2);
            assertThat(qdr.networkBound()).as("QDR, %d machines", nodes).isEqualTo(nodes >= 3);
            assertThat(fdr.networkBound()).as("FDR, %d machines", nodes).isEqualTo(nodes >= 7);
        }
        assertThat(new RadixJoinModel(4, 8, 1, 1, M, 110 * M, 110 * M, M, 450 * M, 2).optimalThreads())
                .isCloseTo(4.1, within(0.05));
        assertThat(new RadixJoinModel(4, 8, 1, 1, M, 110 * M, 110 * M, M, 750 * M, 2).optimalThreads())
                .isCloseTo(6.8, within(0.05));
    }

    /** Digest §10.2's worked predictions: 2,048 M x 2,048 M, 8 threads: FDR N = 4 ≈ 1.16 s, QDR N = 4 ≈ 2.00 s. */
    @Test
    void theNetworkPassOfEquations35And36() {
        long relation = 2_048_000_000L;
        RadixJoinModel fdr = new RadixJoinModel(4, 8, relation, relation, M, 110 * M, 110 * M, M, 750 * M, 2);
        RadixJoinModel qdr = new RadixJoinModel(4, 8, relation, relation, M, 110 * M, 110 * M, M, 450 * M, 2);
        assertThat(fdr.networkPassSeconds()).isCloseTo(1.16, within(0.01));
        assertThat(qdr.networkBound()).isTrue();
        assertThat(qdr.networkPassSeconds()).isCloseTo(2.00, within(0.05));
        assertThat(qdr.localPassSeconds()).isCloseTo(1.16, within(0.01));
    }
}
