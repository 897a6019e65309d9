package dev.faro.join.sortmerge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.join.radix.ReferenceJoin;
import dev.faro.join.workload.JoinWorkload;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The SMJ micro-benchmarks run the join's kernels for real: their join is the reference's, at the intended fan-in. */
class SortMergeMicroBenchmarksTest {

    @Test
    void measuresEveryComponentAndJoinsCorrectlyAtTheCoresFanIn() {
        JoinWorkload workload = JoinWorkload.uniform(20_000, 2, 41);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment inner = workload.inner(arena, 0, 1);
            MemorySegment outer = workload.outer(arena, 0, 1);
            // 2 ranges (2 threads per node), runs of 1,000: R's 20,000 tuples are 10 runs per range, S's 20
            SortMergeJoinConfig config = SortMergeJoinConfig.defaults(2).withRunTuples(1_000);
            SortMergeMicroBenchmarks.Times times =
                    SortMergeMicroBenchmarks.measure(config, 2, inner, 20_000, outer, 40_000);
            assertThat(times.result()).isEqualTo(ReferenceJoin.of(workload, 1));
            assertThat(times.tuples()).isEqualTo(60_000);
            assertThat(times.fanIn()).isBetween(20L, 21L);
            assertThat(java.util.stream.LongStream.of(
                            times.histogramNanos(),
                            times.partitionNanos(),
                            times.sortNanos(),
                            times.mergeNanos(),
                            times.matchNanos()))
                    .allMatch(nanos -> nanos > 0);
        }
    }

    @Test
    void sampledSplittersJoinSkewedKeysCorrectly() {
        JoinWorkload workload = new JoinWorkload(5_000, 4, 1.0, 1.20, 43);
        try (Arena arena = Arena.ofConfined()) {
            SortMergeMicroBenchmarks.Times times = SortMergeMicroBenchmarks.measure(
                    SortMergeJoinConfig.defaults(4).withRunTuples(64).withSampledSplitters(true),
                    4,
                    workload.inner(arena, 0, 1),
                    5_000,
                    workload.outer(arena, 0, 1),
                    20_000);
            assertThat(times.result()).isEqualTo(ReferenceJoin.of(workload, 1));
        }
    }

    @Test
    void concurrentMeasurementsRunTheSameShapeOnEveryThread() {
        JoinWorkload workload = JoinWorkload.uniform(10_000, 2, 47);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment inner = workload.inner(arena, 0, 1);
            MemorySegment outer = workload.outer(arena, 0, 1);
            java.util.List<SortMergeMicroBenchmarks.Times> times = SortMergeMicroBenchmarks.measureConcurrently(
                    SortMergeJoinConfig.defaults(2).withRunTuples(500), 4, 2, 3, inner, 10_000, outer, 20_000);
            // 4 ranges sorted in runs of 500, merged and matched in 2 groups of 2 ranges (a 2-node join's cores)
            assertThat(times).hasSize(3).allSatisfy(t -> {
                assertThat(t.result()).isEqualTo(ReferenceJoin.of(workload, 1));
                assertThat(t.fanIn()).isBetween(20L, 22L);
                assertThat(t.cpuNanos()).hasSize(SortMergeMicroBenchmarks.COMPONENTS);
                assertThat(java.util.Arrays.stream(t.cpuNanos()).min().orElse(0))
                        .isPositive();
            });
            // the phase: from the first thread's start to the last thread's end, at least every thread's own time
            SortMergeMicroBenchmarks.Times phase = SortMergeMicroBenchmarks.Times.phase(times);
            long firstStart =
                    times.stream().mapToLong(t -> t.startNanos()[3]).min().orElseThrow();
            long lastEnd = times.stream()
                    .mapToLong(t -> t.startNanos()[3] + t.mergeNanos())
                    .max()
                    .orElseThrow();
            assertThat(phase.mergeNanos()).isEqualTo(lastEnd - firstStart);
            assertThat(times).allSatisfy(t -> assertThat(phase.mergeNanos()).isGreaterThanOrEqualTo(t.mergeNanos()));
            assertThat(phase.cpuNanos()[3])
                    .isEqualTo(
                            times.stream().mapToLong(t -> t.cpuNanos()[3] / 3).sum());
            assertThat(phase.tuples()).isEqualTo(30_000);
        }
    }
}
