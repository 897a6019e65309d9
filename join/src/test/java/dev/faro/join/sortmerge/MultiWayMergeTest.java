package dev.faro.join.sortmerge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.join.workload.Tuples;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The tournament-tree merge against a sort of all tuples: any run count, empty runs, long runs, duplicate keys. */
class MultiWayMergeTest {

    @Test
    void mergesLikeASortOfEveryTuple() {
        Random random = new Random(21);
        MultiWayMerge merge = new MultiWayMerge(); // reused: its arrays grow and shrink in use
        for (int runs : new int[] {1, 2, 3, 7, 64, 100, 513}) {
            try (Arena arena = Arena.ofConfined()) {
                long[] starts = new long[runs];
                long[] ends = new long[runs];
                long total = 0;
                for (int run = 0; run < runs; run++) {
                    starts[run] = total;
                    // empty runs, runs shorter and longer than a buffer
                    total += run % 5 == 0 ? 0 : random.nextInt(3 * MultiWayMerge.BUFFER_TUPLES);
                    ends[run] = total;
                }
                MemorySegment source = arena.allocate(Math.max(16, total * Tuples.TUPLE_LENGTH));
                long[] expected = new long[(int) total];
                for (int run = 0; run < runs; run++) {
                    long[] keys = random.longs(ends[run] - starts[run], 0, 50)
                            .sorted()
                            .toArray();
                    for (int i = 0; i < keys.length; i++) {
                        long at = starts[run] + i;
                        Tuples.set(source, at, keys[i], keys[i] * 1_000 + run);
                        expected[(int) at] = keys[i];
                    }
                }
                MemorySegment target = arena.allocate(Math.max(16, (total + 3) * Tuples.TUPLE_LENGTH));
                merge.merge(source, starts, ends, runs, target, 3);

                Arrays.sort(expected);
                long[] merged = new long[(int) total];
                long[] input = new long[(int) total];
                for (int i = 0; i < total; i++) {
                    assertThat(Tuples.key(target, 3 + i))
                            .as("%d runs, tuple %d", runs, i)
                            .isEqualTo(expected[i]);
                    assertThat(Tuples.rid(target, 3 + i) / 1_000).isEqualTo(expected[i]); // the rid of its key
                    merged[i] = Tuples.rid(target, 3 + i);
                    input[i] = Tuples.rid(source, i);
                }
                Arrays.sort(merged);
                Arrays.sort(input);
                assertThat(merged).isEqualTo(input);
            }
        }
    }
}
