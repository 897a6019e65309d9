package dev.faro.join.radix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.join.JoinResult;
import dev.faro.join.rma.InJvmRanks;
import dev.faro.join.rma.RmaConfig;
import dev.faro.join.workload.JoinWorkload;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The distributed radix hash join on 1–4 in-JVM ranks over shm and net, for the thesis's workloads, against
 * {@link ReferenceJoin}: the count and checksum of matches must be equal at every rank, and the ranks' shares must
 * add up to them.
 */
class RadixHashJoinTest {

    @TempDir
    Path directory;

    /** Small buffers (256 B: 16 tuples) so that every partition ships many puts and buffers rotate. */
    static RadixJoinConfig small(int threads, int k) {
        return RadixJoinConfig.defaults(threads)
                .withNetworkBits(5)
                .withLocalBits(2)
                .withBuffers(k, 256);
    }

    static Stream<Arguments> providersAndNodes() {
        return InJvmRanks.PROVIDERS.stream().flatMap(p -> Stream.of(1, 2, 3, 4).map(n -> Arguments.of(p, n)));
    }

    @ParameterizedTest(name = "{0}, {1} nodes")
    @MethodSource("providersAndNodes")
    void uniformOneToTwoEqualsTheReference(String provider, int nodes) throws Exception {
        check(provider, nodes, JoinWorkload.uniform(6_000, 2, 11), small(2, 2));
    }

    static Stream<Arguments> workloads() {
        return Stream.of(
                Arguments.of("1:1", JoinWorkload.uniform(5_000, 1, 3), small(2, 2)),
                Arguments.of("1:4", JoinWorkload.uniform(3_000, 4, 4), small(1, 2)),
                Arguments.of("1:8, k=1", JoinWorkload.uniform(1_000, 8, 5), small(2, 1)),
                Arguments.of("selectivity 0.5", new JoinWorkload(4_000, 2, 0.5, 0, 6), small(2, 3)),
                Arguments.of("zipf 1.05", new JoinWorkload(4_000, 4, 1.0, 1.05, 7), small(2, 2)),
                Arguments.of(
                        "zipf 1.20, sorted assignment",
                        new JoinWorkload(4_000, 4, 1.0, 1.20, 8),
                        small(2, 2).withAssignment(PartitionAssignment.SORTED_ROUND_ROBIN)),
                Arguments.of(
                        "no local pass, 64 KiB buffers",
                        JoinWorkload.uniform(5_000, 2, 9),
                        RadixJoinConfig.defaults(2).withNetworkBits(6).withLocalBits(0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("workloads")
    void everyWorkloadEqualsTheReferenceOnThreeNodes(String name, JoinWorkload workload, RadixJoinConfig config)
            throws Exception {
        check("shm", 3, workload, config);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("workloads")
    void theSingleProcessRadixJoinEqualsTheReference(String name, JoinWorkload workload, RadixJoinConfig config) {
        int nodes = 3;
        try (Arena arena = Arena.ofShared()) {
            long innerTotal = workload.innerPerNode() * nodes;
            long outerTotal = workload.outerPerNode() * nodes;
            MemorySegment inner = arena.allocate(innerTotal * 16);
            MemorySegment outer = arena.allocate(outerTotal * 16);
            for (int node = 0; node < nodes; node++) {
                inner.asSlice(node * workload.innerPerNode() * 16, workload.innerPerNode() * 16)
                        .copyFrom(workload.inner(arena, node, nodes));
                outer.asSlice(node * workload.outerPerNode() * 16, workload.outerPerNode() * 16)
                        .copyFrom(workload.outer(arena, node, nodes));
            }
            JoinResult result = LocalRadixJoin.run(config, inner, innerTotal, outer, outerTotal)
                    .result();
            assertThat(result).isEqualTo(ReferenceJoin.of(workload, nodes));
        }
    }

    @ParameterizedTest(name = "k = {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2})
    void underABandwidthCapTheResultIsTheSame(int k) throws Exception {
        check("shm", 3, JoinWorkload.uniform(4_000, 2, 12), small(2, k), 64L << 20);
    }

    private void check(String provider, int nodes, JoinWorkload workload, RadixJoinConfig config) throws Exception {
        check(provider, nodes, workload, config, 0);
    }

    private void check(String provider, int nodes, JoinWorkload workload, RadixJoinConfig config, long cap)
            throws Exception {
        JoinResult expected = ReferenceJoin.of(workload, nodes);
        assertThat(expected.matches()).isPositive();
        RmaConfig rma = RadixHashJoin.rmaConfig(config).withBandwidthCap(cap);
        List<RadixHashJoin.Outcome> outcomes = InJvmRanks.run(provider, directory, nodes, rma, group -> {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment inner = workload.inner(arena, group.rank(), nodes);
                MemorySegment outer = workload.outer(arena, group.rank(), nodes);
                return RadixHashJoin.run(group, config, inner, workload.innerPerNode(), outer, workload.outerPerNode());
            }
        });
        JoinResult shares = new JoinResult(0, 0);
        for (RadixHashJoin.Outcome outcome : outcomes) {
            assertThat(outcome.global()).isEqualTo(expected);
            shares = shares.plus(outcome.local());
            assertThat(outcome.times().totalNanos()).isPositive();
            // every phase's worker threads report their CPU time; the scans are a part of the histogram phase
            assertThat(outcome.times().histogramCpuNanos()).isPositive();
            assertThat(outcome.times().networkCpuNanos()).isPositive();
            assertThat(outcome.times().buildProbeCpuNanos()).isPositive();
            assertThat(outcome.times().histogramScanNanos())
                    .isPositive()
                    .isLessThanOrEqualTo(outcome.times().histogramNanos());
            if (nodes > 1) {
                assertThat(outcome.times().bytesPut()).isPositive();
                // the puts' CPU time is a part of the pass's
                assertThat(outcome.times().networkFabricCpuNanos())
                        .isPositive()
                        .isLessThanOrEqualTo(outcome.times().networkCpuNanos());
            }
        }
        assertThat(shares).isEqualTo(expected);
    }
}
