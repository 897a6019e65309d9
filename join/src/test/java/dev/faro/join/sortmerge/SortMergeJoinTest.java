package dev.faro.join.sortmerge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.join.JoinResult;
import dev.faro.join.radix.RadixHashJoin;
import dev.faro.join.radix.RadixJoinConfig;
import dev.faro.join.radix.ReferenceJoin;
import dev.faro.join.rma.InJvmRanks;
import dev.faro.join.rma.RmaConfig;
import dev.faro.join.workload.JoinWorkload;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The distributed sort-merge join on 1–4 in-JVM ranks over shm and net against the reference join, and against RHJ. */
class SortMergeJoinTest {

    @TempDir
    Path directory;

    /** Short runs (64 tuples) so that every range gets many runs from every sender. */
    static SortMergeJoinConfig small(int threads) {
        return SortMergeJoinConfig.defaults(threads).withRunTuples(64);
    }

    static Stream<Arguments> providersAndNodes() {
        return InJvmRanks.PROVIDERS.stream().flatMap(p -> Stream.of(1, 2, 3, 4).map(n -> Arguments.of(p, n)));
    }

    @ParameterizedTest(name = "{0}, {1} nodes")
    @MethodSource("providersAndNodes")
    void uniformOneToTwoEqualsTheReference(String provider, int nodes) throws Exception {
        check(provider, nodes, JoinWorkload.uniform(5_000, 2, 21), small(2));
    }

    static Stream<Arguments> workloads() {
        return Stream.of(
                Arguments.of("1:1", JoinWorkload.uniform(4_000, 1, 3), small(2)),
                Arguments.of("1:8, one thread", JoinWorkload.uniform(1_000, 8, 5), small(1)),
                Arguments.of("selectivity 0.5", new JoinWorkload(4_000, 2, 0.5, 0, 6), small(2)),
                Arguments.of(
                        "zipf 1.05, sampled splitters",
                        new JoinWorkload(3_000, 4, 1.0, 1.05, 7),
                        small(2).withSampledSplitters(true)),
                Arguments.of("zipf 1.20, equal width", new JoinWorkload(3_000, 4, 1.0, 1.20, 8), small(2)),
                Arguments.of(
                        "uniform, sampled splitters",
                        JoinWorkload.uniform(4_000, 2, 9),
                        small(2).withSampledSplitters(true)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("workloads")
    void everyWorkloadEqualsTheReferenceOnThreeNodes(String name, JoinWorkload workload, SortMergeJoinConfig config)
            throws Exception {
        check("shm", 3, workload, config);
    }

    @Test
    void radixHashJoinAndSortMergeJoinAgreeInOneGroup() throws Exception {
        JoinWorkload workload = new JoinWorkload(5_000, 4, 0.75, 0, 31);
        RadixJoinConfig radix = RadixJoinConfig.defaults(2).withNetworkBits(5).withBuffers(2, 512);
        SortMergeJoinConfig sortMerge = small(2);
        RmaConfig rma = RmaConfig.of(2, Math.max(32 * 2, 2));
        List<JoinResult[]> results = InJvmRanks.run("shm", directory, 3, rma, group -> {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment inner = workload.inner(arena, group.rank(), 3);
                MemorySegment outer = workload.outer(arena, group.rank(), 3);
                return new JoinResult[] {
                    RadixHashJoin.run(group, radix, inner, workload.innerPerNode(), outer, workload.outerPerNode())
                            .global(),
                    SortMergeJoin.run(group, sortMerge, inner, workload.innerPerNode(), outer, workload.outerPerNode())
                            .global()
                };
            }
        });
        JoinResult expected = ReferenceJoin.of(workload, 3);
        for (JoinResult[] pair : results) {
            assertThat(pair[0]).isEqualTo(expected);
            assertThat(pair[1]).isEqualTo(pair[0]);
        }
    }

    private void check(String provider, int nodes, JoinWorkload workload, SortMergeJoinConfig config) throws Exception {
        JoinResult expected = ReferenceJoin.of(workload, nodes);
        assertThat(expected.matches()).isPositive();
        List<SortMergeJoin.Outcome> outcomes =
                InJvmRanks.run(provider, directory, nodes, SortMergeJoin.rmaConfig(config), group -> {
                    try (Arena arena = Arena.ofShared()) {
                        MemorySegment inner = workload.inner(arena, group.rank(), nodes);
                        MemorySegment outer = workload.outer(arena, group.rank(), nodes);
                        return SortMergeJoin.run(
                                group, config, inner, workload.innerPerNode(), outer, workload.outerPerNode());
                    }
                });
        JoinResult shares = new JoinResult(0, 0);
        for (SortMergeJoin.Outcome outcome : outcomes) {
            assertThat(outcome.global()).isEqualTo(expected);
            shares = shares.plus(outcome.local());
            // every phase's worker threads report their CPU time; the kernels are a part of the partitioning phase
            assertThat(outcome.times().partitionCpuNanos()).isPositive();
            assertThat(outcome.times().sortCpuNanos()).isPositive();
            assertThat(outcome.times().mergeCpuNanos()).isPositive();
            assertThat(outcome.times().matchCpuNanos()).isPositive();
            assertThat(outcome.times().partitionKernelsNanos())
                    .isPositive()
                    .isLessThanOrEqualTo(outcome.times().partitionNanos());
        }
        assertThat(shares).isEqualTo(expected);
    }
}
