package dev.faro.bench.zerosided;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.zerosided.link.LinkKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each experiment beyond Fig. 6 once, small, in this process on shared-memory links: it completes, checks its own
 * answers (Q1's merged aggregate against the reference), and prints its table with the paper's figure beside it.
 */
class ZeroSidedExperimentsTest {

    @Test
    void q1LoadBalancingRunsBothModesAndChecksTheAnswer() {
        ExperimentResult result = Q1LoadBalancing.run(LinkKind.SHM, 0.002, 0.2, 1);
        System.out.print(result.text());
        assertThat(result.text()).contains("static", "load-balanced", "paper: static 3.2 s");
        assertThat(result.csvRows()).hasSize(2);
        assertThat(result.csvRows().getFirst()).hasSameSizeAs(result.csvHeader());
    }

    @Test
    void batchingSweepLatencyElasticityReplicationAndQosRunOnce() throws Exception {
        ExperimentResult batching = BatchingSweep.run(LinkKind.SHM, 0.05, 1);
        ExperimentResult latency = PollingLatency.run(LinkKind.SHM, 0.1, 1);
        ExperimentResult elasticity = Elasticity.run(LinkKind.SHM, 0.2);
        ExperimentResult replication = ReplicationOrder.run(LinkKind.SHM, 0.1, 1);
        ExperimentResult qos = QosShares.run(LinkKind.SHM, 0.3);
        for (ExperimentResult result : java.util.List.of(batching, latency, elasticity, replication, qos)) {
            System.out.print(result.text());
            assertThat(result.text()).contains("paper: ");
            assertThat(result.csvRows())
                    .isNotEmpty()
                    .allSatisfy(row -> assertThat(row).hasSameSizeAs(result.csvHeader()));
        }
        assertThat(batching.csvRows()).hasSize(BatchingSweep.ITEM_BYTES.size() * BatchingSweep.BATCH_ITEMS.size());
        assertThat(latency.text()).contains("doorbell", "poll every 10 us", "doorbell, no parks");
        assertThat(latency.csvRows()).hasSize(PollingLatency.MODES_MICROS.size());
        // the switch and the ordered DFI-like multicast: one sequence at every consumer (the run checks it too)
        assertThat(replication.csvRows())
                .filteredOn(row ->
                        !row.getFirst().startsWith("DFI-like") || row.getFirst().endsWith("ordered"))
                .hasSize(7)
                .allSatisfy(row -> assertThat(row.get(4)).isEqualTo("yes"));
        assertThat(replication.text()).contains("zero-sided ÷ DFI-like multicast (WRITE), ordered", "(UD SEND)");
        Path png = Files.createTempFile("replication", ".png");
        try {
            ReplicationOrder.plot(replication, png);
            assertThat(Files.size(png)).isPositive();
        } finally {
            Files.delete(png);
        }
    }

    @Test
    void everyShuffleDeliversEveryTupleExactlyOnceAndEndsEveryProducer() throws Exception {
        List<TupleShuffle> shuffles = List.of(
                new ZeroSidedTupleShuffle(LinkKind.SHM, 4),
                new DfiTupleShuffle(4),
                new SocketTupleShuffle(SocketTupleShuffle.Mode.STREAMING, 4),
                new SocketTupleShuffle(SocketTupleShuffle.Mode.PHASED, 4));
        for (TupleShuffle shuffle : shuffles) {
            for (int tupleBytes : List.of(16, 1024)) {
                // measure() throws unless every tuple arrived exactly once (count and payload sum)
                TupleShuffle.Result result = NmShuffle.measure(shuffle, 4, 4, tupleBytes, 20_000);
                assertThat(java.util.Arrays.stream(result.producerDoneNanos()).boxed())
                        .as("%s, %d B: every producer's end reached its consumers", shuffle.name(), tupleBytes)
                        .hasSize(4)
                        .allSatisfy(done -> assertThat(done).isPositive());
                assertThat(result.finishSpread()).isBetween(0.0, 1.0);
            }
        }
    }

    @Test
    void nmShuffleSweepsEveryTupleSizeForEverySeries() throws Exception {
        ExperimentResult shuffle = NmShuffle.run(LinkKind.SHM, 0.01, 1);
        System.out.print(shuffle.text());
        assertThat(shuffle.text())
                .contains("V5 N:M shuffle", "zero-sided / DFI-like", "zero-sided / TCP", "paper: Fig. 9");
        assertThat(shuffle.csvRows()).hasSize(NmShuffle.TUPLE_BYTES.size() * 4);
    }

    @Test
    void theDistributedJoinEqualsASingleNodeHashJoinOverEveryShuffle() throws Exception {
        DistributedJoin.Relations relations = new DistributedJoin.Relations(1 << 12, 1 << 15);
        for (int nodes : DistributedJoin.NODES) {
            int consumers = nodes * DistributedJoin.THREADS_PER_NODE;
            for (TupleShuffle shuffle : List.of(
                    new ZeroSidedTupleShuffle(LinkKind.SHM, consumers),
                    new SocketTupleShuffle(SocketTupleShuffle.Mode.STREAMING, consumers))) {
                // measure() throws unless matches and checksum equal the single-node join's
                long[] nanos = DistributedJoin.measure(shuffle, nodes, relations);
                assertThat(nanos).hasSize(2);
            }
        }
        long[] reference = DistributedJoin.singleNode(relations, 2);
        assertThat(reference[0]).as("every S tuple has one partner").isEqualTo(1 << 15);
        assertThat(DistributedJoin.singleNode(relations, 4)[0]).isEqualTo(1 << 15);
    }

    @Test
    void aJoinSinkFindsEveryPartnerAndNoOther() {
        DistributedJoin.JoinSink sink = new DistributedJoin.JoinSink(100);
        for (long key = 0; key < 100; key++) {
            sink.accept(key, key * 10);
        }
        sink.probing = true;
        sink.accept(7, 1);
        sink.accept(7, 2);
        sink.accept(1000, 3);
        assertThat(sink.matches).isEqualTo(2);
        assertThat(sink.checksum).isEqualTo((70 ^ 1) + (70 ^ 2));
    }
}
