package dev.faro.bench.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShufflePattern;
import dev.faro.shuffle.endpoint.EndpointDesign;
import org.junit.jupiter.api.Test;

/** MPI at equal cores: one rank per thread of a node only while nodes x threads ranks fit the cores. */
class MpiBaselineTest {

    private static ShuffleCase shuffleCase(int nodes, int threads) {
        return ShuffleCase.of(EndpointDesign.MESQ_SR, ShufflePattern.REPARTITION, nodes, threads, 1024);
    }

    @Test
    void oneRankPerThreadWhileTheyFitTheCores() {
        assertThat(MpiBaseline.ranksPerNode(shuffleCase(2, 1), 2)).isEqualTo(1);
        assertThat(MpiBaseline.ranksPerNode(shuffleCase(2, 2), 4)).isEqualTo(2);
        assertThat(MpiBaseline.ranksPerNode(shuffleCase(4, 2), 16)).isEqualTo(2);
    }

    @Test
    void oneRankPerNodeWhenRanksPerThreadWouldExceedTheCores() {
        assertThat(MpiBaseline.ranksPerNode(shuffleCase(2, 2), 2)).isEqualTo(1);
        assertThat(MpiBaseline.ranksPerNode(shuffleCase(4, 1), 2)).isEqualTo(1);
        assertThat(MpiBaseline.ranksPerNode(shuffleCase(4, 4), 8)).isEqualTo(1);
    }

    @Test
    void configurationNamesTheRanksAndTheCores() {
        int cores = Runtime.getRuntime().availableProcessors();
        if (cores >= 2) {
            assertThat(MpiBaseline.configuration(shuffleCase(1, 2)))
                    .startsWith("-np 2: 2 ranks per node, each shuffling 1 thread's table");
        }
        assertThat(MpiBaseline.configuration(shuffleCase(1, 1)))
                .startsWith("-np 1: 1 rank per node, each shuffling 1 thread's table, on " + cores + " cores");
        assertThat(MpiBaseline.configuration(shuffleCase(cores + 1, 2)))
                .startsWith("-np " + (cores + 1) + ": 1 rank per node, each shuffling 2 threads' tables")
                .endsWith("ranks would exceed the cores)");
        assertThat(MpiBaseline.configuration(shuffleCase(cores + 1, 1)))
                .startsWith("-np " + (cores + 1) + ": 1 rank per node, each shuffling 1 thread's table")
                .endsWith("(more ranks than cores, but one per node is the fewest)");
    }
}
