package dev.faro.hyper;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * V1 of the digest: the paper's counts for 6 servers × 40 threads, and the hybrid counts measured on real
 * multiplexers: n − 1 queue pairs per node whatever the threads, so n·(n − 1) in the cluster.
 */
class ParallelUnitsTest {

    @Test
    void thePapersCountsForSixServersOfFortyThreads() {
        ParallelUnits units = new ParallelUnits(6, 40);
        assertThat(units.classicConnections()).isEqualTo(57_560);
        assertThat(units.classicBuffersPerOperator()).isEqualTo(239);
        assertThat(units.classicBroadcastRatio()).isEqualTo(239);
        assertThat(units.hybridConnections()).isEqualTo(30);
        assertThat(units.hybridBuffersPerOperator()).isEqualTo(5);
        assertThat(units.hybridBroadcastRatio()).isEqualTo(5);
    }

    @Test
    void multiplexersOpenNMinusOneQueuePairsEachWhateverTheThreads() throws Exception {
        int nodes = 3;
        try (HyperCluster cluster = new HyperCluster(nodes, HyperCluster.small())) {
            DecoupledExchangeTest.runQuery(
                    cluster, "v1", nodes, dev.faro.shuffle.endpoint.TransmissionGroups.repartition(nodes), 1_000);
            List<Integer> queuePairs = new ArrayList<>();
            for (Multiplexer multiplexer : cluster.multiplexers) {
                queuePairs.add(multiplexer.queuePairs());
            }
            long total = queuePairs.stream().mapToLong(Integer::longValue).sum();
            assertThat(total).isEqualTo(new ParallelUnits(nodes, 2).hybridConnections());
        }
    }
}
