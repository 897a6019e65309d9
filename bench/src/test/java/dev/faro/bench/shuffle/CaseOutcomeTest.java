package dev.faro.bench.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.List;
import org.junit.jupiter.api.Test;

class CaseOutcomeTest {

    private final ShuffleCase shuffleCase =
            ShuffleCase.of(EndpointDesign.MEMQ_SR, ShufflePattern.REPARTITION, 2, 1, 1000);
    private final ShuffleTuples.Expected expected = ShuffleTuples.expected(shuffleCase);

    private NodeOutcome exact(int node, long elapsedNanos) {
        long count = expected.count(node);
        return new NodeOutcome.Finished(
                new NodeResult(count, expected.checksum(node), 0, count * ShuffleTuples.TUPLE_BYTES, elapsedNanos, 0),
                0);
    }

    @Test
    void anExactDeliveryHasNoProblemsAndThePapersThroughput() {
        CaseOutcome outcome = new CaseOutcome(shuffleCase, expected, List.of(exact(0, 1_000_000), exact(1, 2_000_000)));

        assertThat(outcome.problems()).isEmpty();
        assertThat(outcome.responseNanos()).isEqualTo(2_000_000);
        double bytesPerNode = (expected.count(0) + expected.count(1)) * 16.0 / 2;
        assertThat(outcome.bytesPerNode()).isEqualTo(bytesPerNode);
        assertThat(outcome.receiveBytesPerNodePerSecond()).isEqualTo(bytesPerNode / 2e-3);
    }

    @Test
    void aMissingOrDuplicatedTupleAWrongChecksumDisorderLeftoversAndFailuresAreAllReported() {
        NodeResult node0 = new NodeResult(expected.count(0) + 1, expected.checksum(0) + 7, 3, 0, 1, 2);
        CaseOutcome outcome = new CaseOutcome(
                shuffleCase,
                expected,
                List.of(new NodeOutcome.Finished(node0, 0), new NodeOutcome.Failed("NETWORK", "peer died", 0)));

        assertThat(outcome.problems())
                .containsExactly(
                        "node 0 received " + (expected.count(0) + 1) + " tuples, expected " + expected.count(0),
                        "node 0 checksum " + (expected.checksum(0) + 7) + ", expected " + expected.checksum(0),
                        "node 0 received 3 tuples out of order (RC promises per-thread order here)",
                        "node 0 left 2 shared-memory files after closing its endpoints",
                        "node 1 failed: NETWORK: peer died");
        assertThat(outcome.failures()).containsOnlyKeys(1);
    }

    @Test
    void nodeResultsTravelAsOneLine() {
        NodeResult result = new NodeResult(10, -5, 0, 160, 123, 0);
        assertThat(NodeResult.decode(List.of(result.encode().split(" ")))).isEqualTo(result);
    }

    @Test
    void resourceCountersTravelAndAreNormalized() {
        long count0 = expected.count(0);
        long count1 = expected.count(1);
        // 1 ms response, 1 thread per node: node 0 blocked 0.25 ms sending and 0.5 ms receiving, node 1 not at all
        NodeResult node0 = new NodeResult(
                count0, expected.checksum(0), 0, count0 * 16, 1_000_000, 0, 5, 8, 100_000, 150_000, 500_000, 3);
        NodeResult node1 = new NodeResult(count1, expected.checksum(1), 0, count1 * 16, 1_000_000, 0, 5, 8, 0, 0, 0, 0);
        assertThat(NodeResult.decode(List.of(node0.encode().split(" ")))).isEqualTo(node0);

        CaseOutcome outcome = new CaseOutcome(
                shuffleCase, expected, List.of(new NodeOutcome.Finished(node0, 0), new NodeOutcome.Finished(node1, 0)));

        assertThat(outcome.creditWritesPerMebibyte()).isEqualTo(16 / ((count0 + count1) * 16.0 / (1 << 20)));
        assertThat(outcome.sendBlockedFraction()).isEqualTo(250_000 / 2e6);
        assertThat(outcome.receiveBlockedFraction()).isEqualTo(500_000 / 2e6);
    }

    @Test
    void anOldWorkersLineWithoutCountersDecodesToZeroCounters() {
        NodeResult decoded = NodeResult.decode(
                List.of("count=1", "checksum=2", "outOfOrder=0", "bytes=16", "elapsedNanos=5", "leftoverFiles=0"));
        assertThat(decoded.creditWrites()).isZero();
        assertThat(decoded.dataWaitNanos()).isZero();
    }

    @Test
    void theLocalComputeBaselineProcessesExactlyWhatEachNodeReceives() throws Exception {
        ShuffleCase twoThreads = ShuffleCase.of(EndpointDesign.MESQ_SR, ShufflePattern.REPARTITION, 3, 2, 5000)
                .withScans(2);
        CaseOutcome outcome =
                LocalCompute.run(twoThreads.withTuning(twoThreads.tuning().withReceiveWork(2)));

        assertThat(outcome.problems()).isEmpty();
        assertThat(outcome.receiveBytesPerNodePerSecond()).isPositive();
        ShuffleCase broadcast = ShuffleCase.of(EndpointDesign.MESQ_SR, ShufflePattern.BROADCAST, 2, 1, 3000);
        assertThat(LocalCompute.run(broadcast).problems()).isEmpty();
    }
}
