package dev.faro.join.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The sort-merge join's model against the thesis's own numbers (Table 4.2, §3.5) as the digest derives them. */
class SortMergeJoinModelTest {

    private static final double M = 1e6;

    /**
     * Table 4.2's SMJ column: 1,024 cores, 40 M + 40 M tuples per core, P_part 120, P_sort 45, P_merge 270, P_scan
     * 370, depth 3. Partitioning (histogram at the RHJ's 225 + one pass at 120) 1.03 ≈ 1.00, sorting 1.78, matching
     * 0.22; the merge by Eq. 3.18 is 3 x 80 M / 270 M = 0.89 s (the table prints 1.78, the digest flags it).
     */
    @Test
    void reproducesTheSortMergeColumnOfTable42() {
        long perRelation = 40_000_000L * 1024;
        // runs of 64 Ki tuples: 625 runs per core per relation; fan-in 9 gives depth ceil(log_9 625) = 3
        SortMergeJoinModel model = new SortMergeJoinModel(
                128, 8, perRelation, perRelation, 65_536, 9, 225 * M, 120 * M, 45 * M, 270 * M, 370 * M, 1560 * M);
        assertThat(model.histogramSeconds() + model.partitionSeconds()).isCloseTo(1.00, within(0.04));
        assertThat(model.networkBound()).isFalse();
        assertThat(model.sortSeconds()).isCloseTo(1.78, within(0.01));
        assertThat(model.mergeDepth(perRelation)).isEqualTo(3);
        assertThat(model.mergeSeconds()).isCloseTo(0.89, within(0.01));
        assertThat(model.matchSeconds()).isCloseTo(0.22, within(0.01));
    }

    /** §3.5: SMJ needs 9 cores to saturate QDR and 17 for FDR (8-byte tuples: 450 and 750 M/s) at about 45-50 M/s. */
    @Test
    void optimalThreadsOfSection35() {
        SortMergeJoinModel qdr = new SortMergeJoinModel(4, 8, 1, 1, 1024, 2, M, M, 50 * M, M, M, 450 * M);
        SortMergeJoinModel fdr = new SortMergeJoinModel(4, 8, 1, 1, 1024, 2, M, M, 45 * M, M, M, 750 * M);
        assertThat(qdr.optimalThreads()).isCloseTo(9, within(0.5));
        assertThat(fdr.optimalThreads()).isCloseTo(17, within(0.5));
        assertThat(qdr.networkBound()).isFalse(); // 3/4 x 50 = 37.5 < 450 / 8 = 56.25: compute-bound, as the thesis
    }

    /** Eq. 3.14: network-bound, each thread's rate is the harmonic mix of sorting (1/N) and the network ((N-1)/N). */
    @Test
    void networkBoundSortRateOfEquation314() {
        SortMergeJoinModel model = new SortMergeJoinModel(2, 1, 1_000, 1_000, 16, 2, M, M, 100 * M, M, M, 20 * M);
        assertThat(model.networkBound()).isTrue();
        assertThat(model.sortRatePerThread()).isCloseTo(1 / (0.5 / (100 * M) + 0.5 / (20 * M)), within(1.0));
        assertThat(model.sortSeconds()).isCloseTo(2_000 / (2 * model.sortRatePerThread()), within(1e-12));
        // Eq. 3.17: 63 runs of 16 over 2 cores at fan-in 2 take ceil(log2 31.5) = 5 passes; a lone run still one
        assertThat(model.mergeDepth(1_000)).isEqualTo(5);
        assertThat(model.mergeDepth(16)).isEqualTo(1);
    }
}
