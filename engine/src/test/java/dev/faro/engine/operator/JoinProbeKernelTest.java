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
                assertOneKeyEqualsTwoKeys(build, probes, "unique build " + uniqueBuild + ", nulls " + withNulls);
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
            assertOneKeyEqualsTwoKeys(build, probes, "unique build " + uniqueBuild);
        }
    }

    @Test
    void clusteredProbeKeysReuseTheirMatchAsTheGeneralProbeWould() {
        // runs of equal probe keys (as LINEITEM's order keys come), NULLs inside runs, keys without a partner
        Random random = new Random(43);
        for (boolean uniqueBuild : new boolean[] {true, false}) {
            for (int buildRows : new int[] {3000, 40_000}) {
                List<Batch> build = List.of(batch(random, buildRows, 2 * buildRows, uniqueBuild, true));
                List<Batch> probes = List.of(
                        clustered(random, 6000, 4 * buildRows), clustered(random, 0, 100), clustered(random, 1, 100));
                assertOneKeyEqualsTwoKeys(build, probes, "unique build " + uniqueBuild + ", build rows " + buildRows);
            }
        }
    }

    @Test
    void aBuildOfDenseKeysProbesThroughItsBitmapAsTheGeneralProbe() {
        // build keys in a narrow range (the table keeps a KeyBitmap), probe keys around and beyond it, NULLs on
        // both sides, small and large builds (the latter with prefetching), unique and duplicate keys, one key and
        // two (the bitmap knows the first); the same join without a bitmap (and a filter from 0 rows on) is the
        // reference
        Random random = new Random(47);
        for (boolean uniqueBuild : new boolean[] {true, false}) {
            for (int buildRows : new int[] {50, 3000, 40_000}) {
                List<Batch> build = List.of(dense(random, buildRows, -7, 3 * buildRows, uniqueBuild));
                JoinBuildOperator.Factory builds = new JoinBuildOperator.Factory(BUILD, List.of("bk"), 0);
                Operator builder = builds.create(0);
                build.forEach(builder::addInput);
                builder.finish();
                builds.complete(2);
                assertThat(builds.table().bitmap).isNotNull();
                assertThat(builds.table().filter).isNull();
                List<Batch> probes = List.of(
                        dense(random, 5000, -200, 4 * buildRows, false),
                        dense(random, 0, 0, 10, false),
                        dense(random, 2000, -10, 3 * buildRows + 20, false));
                for (JoinType type : JoinType.values()) {
                    for (List<String> keys : List.of(List.of("k"), List.of("k", "p"))) {
                        List<String> buildKeys = keys.size() == 1 ? List.of("bk") : List.of("bk", "b");
                        assertThat(JoinProbes.run(type, PROBE, BUILD, build, probes, keys, buildKeys, 0, true))
                                .as("%s join on %s, unique build %s, %d build rows", type, keys, uniqueBuild, buildRows)
                                .isEqualTo(
                                        JoinProbes.run(type, PROBE, BUILD, build, probes, keys, buildKeys, 0, false));
                    }
                }
            }
        }
    }

    /** Keys {@code from} + [0, range) (distinct when unique), one row in nine NULL, a number below 4 beside them. */
    private static Batch dense(Random random, int rows, long from, int range, boolean unique) {
        long[] keys = new long[rows];
        int[] numbers = new int[rows];
        boolean[] nulls = new boolean[rows];
        List<Long> shuffled = new ArrayList<>();
        for (long key = 0; key < range; key++) {
            shuffled.add(from + key);
        }
        java.util.Collections.shuffle(shuffled, random);
        for (int i = 0; i < rows; i++) {
            keys[i] = unique ? shuffled.get(i) : from + random.nextInt(range);
            numbers[i] = random.nextInt(4); // the second key of the two-key joins
            nulls[i] = random.nextInt(9) == 0;
        }
        return Batch.of(rows, new LongVector(DataType.BIGINT, keys, nulls), new IntVector(DataType.INTEGER, numbers));
    }

    /** Runs of one to six equal keys below {@code range} (as {@link #batch} makes them), one row in ten NULL. */
    private static Batch clustered(Random random, int rows, int range) {
        long[] keys = new long[rows];
        int[] numbers = new int[rows];
        boolean[] nulls = new boolean[rows];
        long key = 0;
        for (int i = 0; i < rows; i++) {
            if (i == 0 || random.nextInt(4) == 0) {
                key = random.nextInt(range) * 7919L - 100;
            }
            keys[i] = key;
            numbers[i] = i;
            nulls[i] = random.nextInt(10) == 0;
        }
        return Batch.of(rows, new LongVector(DataType.BIGINT, keys, nulls), new IntVector(DataType.INTEGER, numbers));
    }

    /** Every join type on k = bk (the one-long-key path) emits what it emits on k = bk AND k = bk (the general one). */
    private static void assertOneKeyEqualsTwoKeys(List<Batch> build, List<Batch> probes, String description) {
        for (JoinType type : JoinType.values()) {
            assertThat(run(type, build, probes, List.of("k"), List.of("bk")))
                    .as("%s join, %s", type, description)
                    .isEqualTo(run(type, build, probes, List.of("k", "k"), List.of("bk", "bk")));
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
