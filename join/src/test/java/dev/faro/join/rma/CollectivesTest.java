package dev.faro.join.rma;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every collective on 1–4 ranks, on shm and net, against the same reduction computed locally. */
class CollectivesTest {

    @TempDir
    Path directory;

    static Stream<Arguments> providersAndRanks() {
        return InJvmRanks.PROVIDERS.stream().flatMap(p -> Stream.of(1, 2, 3, 4).map(n -> Arguments.of(p, n)));
    }

    /** Rank r's contribution: {@code length} values that differ by rank and index. */
    static long[] values(int rank, int length) {
        long[] values = new long[length];
        for (int i = 0; i < length; i++) {
            values[i] = (rank + 1) * 1_000_003L + i * 7L;
        }
        return values;
    }

    @ParameterizedTest(name = "{0}, {1} ranks")
    @MethodSource("providersAndRanks")
    void everyCollectiveMatchesTheLocalReduction(String provider, int ranks) throws Exception {
        int length = 4 * 3000; // several rounds of 16 KiB slots, a multiple of every group size
        List<long[][]> results = InJvmRanks.run(provider, directory, ranks, RmaConfig.of(1, 8), group -> {
            Collectives c = group.collectives();
            long[] mine = values(group.rank(), length);
            c.barrier();
            return new long[][] {
                c.allReduceSum(mine),
                c.scanInclusive(mine),
                c.scanExclusive(mine),
                c.reduceScatterBlock(mine),
                c.allToAll(mine),
                c.broadcast(ranks - 1, mine),
                c.allGather(new long[] {group.rank()})
            };
        });
        for (int rank = 0; rank < ranks; rank++) {
            long[][] r = results.get(rank);
            int block = length / ranks;
            long[] sum = new long[length];
            long[] inclusive = new long[length];
            long[] exclusive = new long[length];
            long[] scattered = new long[block];
            long[] toMe = new long[length];
            for (int peer = 0; peer < ranks; peer++) {
                long[] v = values(peer, length);
                for (int i = 0; i < length; i++) {
                    sum[i] += v[i];
                    if (peer <= rank) {
                        inclusive[i] += v[i];
                    }
                    if (peer < rank) {
                        exclusive[i] += v[i];
                    }
                }
                for (int i = 0; i < block; i++) {
                    scattered[i] += v[rank * block + i];
                    toMe[peer * block + i] = v[rank * block + i];
                }
            }
            assertThat(r[0]).as("allreduce at rank %d", rank).isEqualTo(sum);
            assertThat(r[1]).as("inclusive scan at rank %d", rank).isEqualTo(inclusive);
            assertThat(r[2]).as("exclusive scan at rank %d", rank).isEqualTo(exclusive);
            assertThat(r[3]).as("reduce-scatter at rank %d", rank).isEqualTo(scattered);
            assertThat(r[4]).as("all-to-all at rank %d", rank).isEqualTo(toMe);
            assertThat(r[5]).as("broadcast at rank %d", rank).isEqualTo(values(ranks - 1, length));
            long[] ids = new long[ranks];
            for (int i = 0; i < ranks; i++) {
                ids[i] = i;
            }
            assertThat(r[6]).as("all-gather at rank %d", rank).isEqualTo(ids);
        }
    }
}
