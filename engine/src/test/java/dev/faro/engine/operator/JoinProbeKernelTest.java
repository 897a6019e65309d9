package dev.faro.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.plan.JoinType;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The join probe on one non-string key (the bucket's first key beside its row, stopping early on unique build keys)
 * emits exactly what the general probe emits: the same key twice ({@code k = bk AND k = bk}) goes through the old
 * path. Unique and duplicate build keys, NULL keys on both sides, empty batches, every join type.
 */
class JoinProbeKernelTest {

    private static final Schema PROBE = Schema.of(new Column("k", DataType.BIGINT), new Column("p", DataType.INTEGER));
    private static final Schema BUILD = Schema.of(new Column("bk", DataType.BIGINT), new Column("b", DataType.INTEGER));

    @Test
    void oneLongKeyProbeEqualsTheGeneralProbe() {
        Random random = new Random(17);
        for (boolean uniqueBuild : new boolean[] {true, false}) {
            for (boolean withNulls : new boolean[] {false, true}) {
                List<Batch> build = List.of(
                        batch(random, 3000, 5000, uniqueBuild, withNulls),
                        batch(random, 0, 5000, uniqueBuild, withNulls));
                List<Batch> probes = List.of(
                        batch(random, 4000, 8000, false, withNulls),
                        batch(random, 0, 8000, false, withNulls),
                        batch(random, 17, 8000, false, withNulls));
                for (JoinType type : JoinType.values()) {
                    assertThat(run(type, build, probes, List.of("k"), List.of("bk")))
                            .as("%s join, unique build %s, nulls %s", type, uniqueBuild, withNulls)
                            .isEqualTo(run(type, build, probes, List.of("k", "k"), List.of("bk", "bk")));
                }
            }
        }
    }

    @Test
    void oneLongKeyProbeOfALargeTableEqualsTheGeneralProbe() {
        // 40,000 build rows: 2^17 buckets, so the one-key probe reads its buckets ahead (and the filter is on)
        Random random = new Random(29);
        for (boolean uniqueBuild : new boolean[] {true, false}) {
            List<Batch> build = List.of(batch(random, 40_000, 80_000, uniqueBuild, true));
            List<Batch> probes =
                    List.of(batch(random, 9000, 120_000, false, true), batch(random, 300, 80_000, false, false));
            for (JoinType type : JoinType.values()) {
                assertThat(run(type, build, probes, List.of("k"), List.of("bk")))
                        .as("%s join, unique build %s", type, uniqueBuild)
                        .isEqualTo(run(type, build, probes, List.of("k", "k"), List.of("bk", "bk")));
            }
        }
    }

    private static List<List<Object>> run(
            JoinType type, List<Batch> build, List<Batch> probes, List<String> probeKeys, List<String> buildKeys) {
        return JoinProbes.run(type, PROBE, BUILD, build, probes, probeKeys, buildKeys, JoinHashTable.FILTER_MIN_ROWS);
    }

    /** Keys below {@code range} (a permutation's prefix when unique), a running row number beside them. */
    private static Batch batch(Random random, int rows, int range, boolean unique, boolean withNulls) {
        long[] keys = new long[rows];
        int[] numbers = new int[rows];
        boolean[] nulls = new boolean[rows];
        List<Long> shuffled = new ArrayList<>();
        for (long key = 0; key < range; key++) {
            shuffled.add(key * 7919 - 100);
        }
        java.util.Collections.shuffle(shuffled, random);
        for (int i = 0; i < rows; i++) {
            keys[i] = unique ? shuffled.get(i) : shuffled.get(random.nextInt(range / 4));
            numbers[i] = i;
            nulls[i] = withNulls && random.nextInt(8) == 0;
        }
        return Batch.of(
                rows,
                new LongVector(DataType.BIGINT, keys, withNulls ? nulls : null),
                new IntVector(DataType.INTEGER, numbers));
    }
}
