package dev.faro.bench.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.operator.Partitioner;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ShuffleCaseTest {

    @Test
    void encodeAndDecodeRoundTrip() {
        ShuffleCase original = ShuffleCase.of(EndpointDesign.MESQ_SR, ShufflePattern.MULTICAST, 4, 2, 1234)
                .withScans(3)
                .withSilentNodes(Set.of(3, 1))
                .withBuffers(4096, 8)
                .withStallTimeout(Duration.ofMillis(1500));

        String line = original.encode();
        ShuffleCase decoded = ShuffleCase.decode(List.of(line.split(" ")));

        assertThat(line)
                .isEqualTo("design=MESQ_SR pattern=multicast nodes=4 groups=0,1;1,2,3;0 threads=2 tuples=1234"
                        + " scans=3 silent=1,3 bufferBytes=4096 buffersPerPeer=8 stallMillis=1500 transport=fabric credit=0"
                        + " writeMode=POLL_COMPLETION_QUEUE bufferPolicy=fixed work=0 slowNode=-1 slowWork=0");
        assertThat(decoded.encode()).isEqualTo(line);
        assertThat(decoded.label()).isEqualTo("MESQ/SR multicast 4 nodes x 2 threads");
        assertThat(decoded.sends(1)).isFalse();
        assertThat(decoded.sends(2)).isTrue();
        assertThat(decoded.tuplesSentBy(2)).isEqualTo(2L * 1234 * 3);
        assertThat(decoded.dataKey()).isEqualTo("nodes=4 groups=0,1;1,2,3;0 threads=2 tuples=1234 scans=3 silent=1,3");
        assertThat(decoded.withDefaultBuffers()
                        .withStallTimeout(Duration.ofSeconds(9))
                        .dataKey())
                .isEqualTo(decoded.dataKey());
    }

    @Test
    void decodingNamesWhatIsMissingOrWrong() {
        assertThatThrownBy(() -> ShuffleCase.decode(List.of("design=MESQ_SR")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("missing nodes=");
        assertThatThrownBy(() -> ShuffleCase.decode(List.of("nonsense")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected key=value, got 'nonsense'");
        assertThatThrownBy(() -> ShuffleCase.of(EndpointDesign.MESQ_SR, ShufflePattern.REPARTITION, 2, 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threads must be in [1, 255]: 0");
    }

    @Test
    void orderIsCheckedOnlyWhereRcPromisesIt() {
        assertThat(ShuffleCase.of(EndpointDesign.SEMQ_SR, ShufflePattern.REPARTITION, 3, 1, 10)
                        .ordered())
                .isTrue();
        assertThat(ShuffleCase.of(EndpointDesign.SEMQ_SR, ShufflePattern.BROADCAST, 3, 1, 10)
                        .ordered())
                .isTrue();
        // ME: receiving thread i is fed by sending thread i of each node only
        assertThat(ShuffleCase.of(EndpointDesign.MEMQ_WR, ShufflePattern.REPARTITION, 3, 2, 10)
                        .ordered())
                .isTrue();
        // SE with two receiving threads sharing one endpoint: no per-thread order to observe
        assertThat(ShuffleCase.of(EndpointDesign.SEMQ_SR, ShufflePattern.REPARTITION, 3, 2, 10)
                        .ordered())
                .isFalse();
        // overlapping groups: one thread feeds a node through several output buffers
        assertThat(ShuffleCase.of(EndpointDesign.SEMQ_SR, ShufflePattern.MULTICAST, 3, 1, 10)
                        .ordered())
                .isFalse();
        // UD may reorder
        assertThat(ShuffleCase.of(EndpointDesign.SESQ_SR, ShufflePattern.REPARTITION, 3, 1, 10)
                        .ordered())
                .isFalse();
        // a second scan repeats the rows
        assertThat(ShuffleCase.of(EndpointDesign.SEMQ_SR, ShufflePattern.REPARTITION, 3, 1, 10)
                        .withScans(2)
                        .ordered())
                .isFalse();
    }

    @ParameterizedTest
    @EnumSource(ShufflePattern.class)
    void expectedMatchesTheShuffleOperatorsPartitionerTupleByTuple(ShufflePattern pattern) {
        ShuffleCase shuffleCase = ShuffleCase.of(EndpointDesign.MEMQ_SR, pattern, 3, 2, 500)
                .withScans(2)
                .withSilentNodes(Set.of(1));
        TransmissionGroups groups = shuffleCase.groups();
        Partitioner partitioner = Partitioner.hashLongKey(groups.groupCount());
        long[] count = new long[3];
        long[] checksum = new long[3];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment table = arena.allocate(500L * ShuffleTuples.TUPLE_BYTES);
            for (int node : new int[] {0, 2}) {
                for (int thread = 0; thread < 2; thread++) {
                    ShuffleTuples.fill(table, node, thread, 500);
                    for (int row = 0; row < 500; row++) {
                        int group = partitioner.group(table, (long) row * ShuffleTuples.TUPLE_BYTES);
                        for (int member : groups.members(group)) {
                            count[member] += 2;
                            checksum[member] += 2 * Partitioner.mix(ShuffleTuples.value(node, thread, row));
                        }
                    }
                }
            }
        }
        ShuffleTuples.Expected expected = ShuffleTuples.expected(shuffleCase);
        for (int node = 0; node < 3; node++) {
            assertThat(expected.count(node)).as("count at %d", node).isEqualTo(count[node]);
            assertThat(expected.checksum(node)).as("checksum at %d", node).isEqualTo(checksum[node]);
        }
        if (pattern == ShufflePattern.REPARTITION) {
            assertThat(expected.totalCount()).isEqualTo(2L * 2 * 500 * 2);
        }
    }

    @Test
    void valuesEncodeNodeThreadAndRow() {
        long value = ShuffleTuples.value(3, 7, 123_456);
        assertThat(ShuffleTuples.node(value)).isEqualTo(3);
        assertThat(ShuffleTuples.thread(value)).isEqualTo(7);
        assertThat(ShuffleTuples.row(value)).isEqualTo(123_456);
    }
}
