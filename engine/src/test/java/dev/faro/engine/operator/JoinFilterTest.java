package dev.faro.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.plan.JoinType;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.StringVector;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The join filter never rejects a key the build has, rejects most others, and a probe through a filtered table emits
 * exactly what it emits through the same table without a filter (also once it stopped filtering because most of a
 * batch's rows found a partner): one long key (the bucket-head path) and a long plus a
 * string key (the general path), unique and duplicate build keys, NULL keys on both sides, empty batches, every join
 * type.
 */
class JoinFilterTest {

    private static final Schema PROBE =
            Schema.of(new Column("k", DataType.BIGINT), new Column("ps", DataType.varchar(4)));
    private static final Schema BUILD =
            Schema.of(new Column("bk", DataType.BIGINT), new Column("bs", DataType.varchar(4)));

    @Test
    void noFalseNegativesAndFewFalsePositives() {
        Random random = new Random(3);
        int rows = 50_000;
        JoinFilter filter = new JoinFilter(rows);
        long[] added = new long[rows];
        for (int i = 0; i < rows; i++) {
            added[i] = KeyColumns.hashOfOneKey(random.nextLong());
            filter.add(added[i]);
        }
        for (long hash : added) {
            assertThat(filter.mightContain(hash)).isTrue();
        }
        int positives = 0;
        int others = 100_000;
        for (int i = 0; i < others; i++) {
            positives += filter.mightContain(KeyColumns.hashOfOneKey(random.nextLong())) ? 1 : 0;
        }
        assertThat(positives).as("false positives of %d", others).isLessThan(others / 10);
    }

    @Test
    void aFilteredProbeEqualsTheUnfilteredProbe() {
        Random random = new Random(23);
        for (boolean uniqueBuild : new boolean[] {true, false}) {
            for (boolean withNulls : new boolean[] {false, true}) {
                List<Batch> build =
                        List.of(batch(random, 3000, 5000, uniqueBuild, withNulls), batch(random, 0, 5000, true, false));
                List<Batch> probes = List.of(
                        batch(random, 4000, 40_000, false, withNulls),
                        batch(random, 0, 40_000, false, withNulls),
                        batch(random, 17, 8000, false, withNulls),
                        batch(random, 3000, 5000, false, withNulls), // most find a partner: filtering stops
                        batch(random, 4000, 40_000, false, withNulls));
                for (JoinType type : JoinType.values()) {
                    for (List<String> keys : List.of(List.of("k"), List.of("k", "ps"))) {
                        List<String> buildKeys = keys.size() == 1 ? List.of("bk") : List.of("bk", "bs");
                        assertThat(run(type, build, probes, keys, buildKeys, 0))
                                .as("%s join on %s, unique build %s, nulls %s", type, keys, uniqueBuild, withNulls)
                                .isEqualTo(run(type, build, probes, keys, buildKeys, Integer.MAX_VALUE));
                    }
                }
            }
        }
    }

    @Test
    void aBuildGetsAFilterFromItsThresholdOn() {
        Random random = new Random(1);
        for (int threshold : new int[] {0, 3000, 3001}) {
            JoinBuildOperator.Factory builds = new JoinBuildOperator.Factory(BUILD, List.of("bk"), threshold);
            Operator builder = builds.create(0);
            builder.addInput(batch(random, 3000, 5000, true, false));
            builder.finish();
            builds.complete(2);
            assertThat(builds.table().filter != null)
                    .as("threshold %d", threshold)
                    .isEqualTo(threshold <= 3000);
        }
    }

    private static List<List<Object>> run(
            JoinType type,
            List<Batch> build,
            List<Batch> probes,
            List<String> probeKeys,
            List<String> buildKeys,
            int filterMinRows) {
        return JoinProbes.run(type, PROBE, BUILD, build, probes, probeKeys, buildKeys, filterMinRows);
    }

    /**
     * Keys below {@code range} (distinct when unique) times a million and three, spread too wide for a {@link
     * KeyBitmap} (which would stand in for the filter), a two-letter string derived from the key beside them.
     */
    private static Batch batch(Random random, int rows, int range, boolean unique, boolean withNulls) {
        long[] keys = new long[rows];
        boolean[] nulls = new boolean[rows];
        String[] strings = new String[rows];
        for (int i = 0; i < rows; i++) {
            keys[i] = (unique ? (i * 7919L) % range : random.nextInt(range / 4)) * 1_000_003L;
            nulls[i] = withNulls && random.nextInt(8) == 0;
            strings[i] = withNulls && random.nextInt(8) == 0 ? null : "s" + keys[i] % 3;
        }
        return Batch.of(
                rows,
                new LongVector(DataType.BIGINT, keys, withNulls ? nulls : null),
                new StringVector(DataType.varchar(4), strings));
    }
}
