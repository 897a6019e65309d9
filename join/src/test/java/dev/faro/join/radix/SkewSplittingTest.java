package dev.faro.join.radix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.join.JoinResult;
import dev.faro.join.workload.JoinWorkload;
import dev.faro.join.workload.Tuples;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * Skew handling inside a node (thesis §3.2.1): on Zipf 1.20 outer keys the hottest partition is cut so that no task
 * probes more than a quarter of a thread's fair share, several threads probe its one table, and the result is the
 * reference join's; a too-large inner partition becomes several tables.
 */
class SkewSplittingTest {

    private static final int NETWORK_BITS = 4;
    private static final int LOCAL_BITS = 2;
    private static final int THREADS = 4;

    @Test
    void zipf120HotPartitionIsProbedInRangesByEveryThread() {
        JoinWorkload workload = new JoinWorkload(40_000, 4, 1.0, 1.20, 17);
        try (Arena arena = Arena.ofShared()) {
            LocalPhases phases = partitioned(arena, workload);
            phases.localPartition(THREADS);
            BuildProbeTasks plan = BuildProbeTasks.plan(phases, THREADS);
            long limit = BuildProbeTasks.splitOuterTuples(workload.outerPerNode(), THREADS);
            // the hot key's sub-partition holds about a fifth of S: unsplit, one task would be 3x the longest now
            assertThat(plan.largestOuterPartition())
                    .isGreaterThan(workload.outerPerNode() / 6)
                    .isGreaterThan(3 * limit);
            assertThat(plan.splitPartitions()).isPositive();
            assertThat(plan.secondRound()).isGreaterThanOrEqualTo(THREADS);
            assertThat(plan.largestProbe()).isLessThanOrEqualTo(limit);

            JoinResult result = phases.buildProbe(THREADS);
            assertThat(result).isEqualTo(ReferenceJoin.of(workload, 1));
            assertThat(phases.splitPartitions()).isEqualTo(plan.splitPartitions());
            assertThat(java.util.Arrays.stream(phases.probedByThread()).sum()).isEqualTo(workload.outerPerNode());
        }
    }

    @Test
    void uniformKeysAreNotSplit() {
        JoinWorkload workload = JoinWorkload.uniform(40_000, 4, 19);
        try (Arena arena = Arena.ofShared()) {
            LocalPhases phases = partitioned(arena, workload);
            phases.localPartition(THREADS);
            assertThat(BuildProbeTasks.plan(phases, THREADS).splitPartitions()).isZero();
            assertThat(phases.buildProbe(THREADS)).isEqualTo(ReferenceJoin.of(workload, 1));
        }
    }

    @Test
    void aTooLargeInnerPartitionBecomesSeveralTablesEachProbedByTheWholeOuter() {
        // no local pass and one network partition: 300 k inner tuples exceed 4 x 8 Ki and a quarter of a fair share
        JoinWorkload workload = JoinWorkload.uniform(300_000, 1, 23);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment inner = workload.inner(arena, 0, 1);
            MemorySegment outer = workload.outer(arena, 0, 1);
            LocalPhases phases = new LocalPhases(
                    inner,
                    outer,
                    inner,
                    outer,
                    new long[] {0},
                    new long[] {300_000},
                    new long[] {0},
                    new long[] {300_000},
                    0,
                    0);
            BuildProbeTasks plan = BuildProbeTasks.plan(phases, THREADS);
            assertThat(plan.splitPartitions()).isEqualTo(1);
            assertThat(plan.firstRound()).isGreaterThan(1);
            assertThat(phases.buildProbe(THREADS)).isEqualTo(ReferenceJoin.of(workload, 1));
            // every table is probed by all of S
            assertThat(java.util.Arrays.stream(phases.probedByThread()).sum()).isEqualTo(plan.firstRound() * 300_000L);
        }
    }

    /** One node's R and S radix-partitioned on NETWORK_BITS, as the network pass leaves them, local pass prepared. */
    private static LocalPhases partitioned(Arena arena, JoinWorkload workload) {
        MemorySegment[] input = {workload.inner(arena, 0, 1), workload.outer(arena, 0, 1)};
        long[] tuples = {workload.innerPerNode(), workload.outerPerNode()};
        int fanOut = 1 << NETWORK_BITS;
        MemorySegment[] out = new MemorySegment[2];
        long[][] starts = new long[2][fanOut];
        long[][] counts = new long[2][fanOut];
        for (int rel = 0; rel < 2; rel++) {
            RadixKernels.histogram(input[rel], 0, tuples[rel], 0, fanOut - 1, counts[rel]);
            long[] cursors = new long[fanOut];
            for (int p = 1; p < fanOut; p++) {
                starts[rel][p] = starts[rel][p - 1] + counts[rel][p - 1];
            }
            System.arraycopy(starts[rel], 0, cursors, 0, fanOut);
            out[rel] = arena.allocate(tuples[rel] * Tuples.TUPLE_LENGTH, 64);
            RadixKernels.scatter(input[rel], 0, tuples[rel], 0, fanOut - 1, out[rel], cursors);
        }
        return new LocalPhases(
                out[0],
                out[1],
                arena.allocate(tuples[0] * Tuples.TUPLE_LENGTH, 64),
                arena.allocate(tuples[1] * Tuples.TUPLE_LENGTH, 64),
                starts[0],
                counts[0],
                starts[1],
                counts[1],
                NETWORK_BITS,
                LOCAL_BITS);
    }
}
