package dev.faro.engine.operator;

import static dev.faro.engine.expression.Expressions.and;
import static dev.faro.engine.expression.Expressions.col;
import static dev.faro.engine.expression.Expressions.gt;
import static dev.faro.engine.expression.Expressions.intLit;
import static dev.faro.engine.expression.Expressions.lit;
import static dev.faro.engine.expression.Expressions.lt;
import static dev.faro.engine.expression.Expressions.ne;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.expression.Expression;
import dev.faro.engine.plan.HashJoin;
import dev.faro.engine.plan.JoinType;
import dev.faro.engine.plan.Plans;
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
 * A join probe with the filter below it fused in (it probes only the rows the filter keeps) emits exactly what a
 * {@link FilterOperator} followed by the plain probe emits: every join type, one long key (the one-key path) and two
 * keys (the general path), with and without the build's bitmap, with and without a residual, NULL keys and NULL
 * filter columns, empty batches, and filters keeping every row, none or some.
 */
class FusedProbeFilterTest {

    private static final Schema PROBE = Schema.of(
            new Column("k", DataType.BIGINT), new Column("p", DataType.INTEGER), new Column("v", DataType.BIGINT));
    private static final Schema BUILD = Schema.of(new Column("bk", DataType.BIGINT), new Column("b", DataType.INTEGER));

    @Test
    void theFusedProbeEmitsWhatAFilterBeforeTheProbeEmits() {
        Random random = new Random(18);
        List<Expression> filters = List.of(
                lt(col("p"), intLit(2)), // some rows
                gt(col("v"), lit(5)), // NULLs in v are never TRUE
                and(ne(col("p"), intLit(1)), gt(col("k"), lit(10))), // two terms, NULL keys dropped
                gt(col("p"), intLit(-1)), // every row
                gt(col("p"), intLit(9))); // no row
        for (boolean unique : new boolean[] {true, false}) {
            for (int buildRows : new int[] {40, 5000}) {
                List<Batch> build = List.of(batch(random, buildRows, 3 * buildRows, unique, true));
                List<Batch> probes = List.of(
                        batch(random, 3000, 4 * buildRows, false, true),
                        batch(random, 0, 10, false, false),
                        batch(random, 1500, 4 * buildRows, false, false));
                for (boolean bitmaps : new boolean[] {true, false}) {
                    for (JoinType type : JoinType.values()) {
                        for (List<String> keys : List.of(List.of("k"), List.of("k", "p"))) {
                            List<String> buildKeys = keys.size() == 1 ? List.of("bk") : List.of("bk", "b");
                            for (Expression residual : new Expression[] {null, lt(col("p"), col("b"))}) {
                                for (Expression filter : filters) {
                                    HashJoin join = join(type, keys, buildKeys, residual);
                                    assertThat(run(join, build, probes, filter, bitmaps, true))
                                            .as(
                                                    "%s join on %s, residual %s, filter %s, unique %s, %d build rows, "
                                                            + "bitmaps %s",
                                                    type, keys, residual, filter, unique, buildRows, bitmaps)
                                            .isEqualTo(run(join, build, probes, filter, bitmaps, false));
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private static HashJoin join(JoinType type, List<String> probeKeys, List<String> buildKeys, Expression residual) {
        return new HashJoin(
                type,
                Plans.scan("probe", PROBE, PROBE.names().toArray(String[]::new)),
                Plans.scan("build", BUILD, BUILD.names().toArray(String[]::new)),
                probeKeys,
                buildKeys,
                residual,
                List.of());
    }

    /** The join's output rows over {@code probes}: the filter fused into the probe, or a filter operator before it. */
    private static List<List<Object>> run(
            HashJoin join, List<Batch> build, List<Batch> probes, Expression filter, boolean bitmaps, boolean fused) {
        JoinBuildOperator.Factory builds = new JoinBuildOperator.Factory(BUILD, join.buildKeys(), 0, bitmaps);
        Operator builder = builds.create(0);
        build.forEach(builder::addInput);
        builder.finish();
        builds.complete(2);
        Operator probe = new HashJoinProbeOperator.Factory(join, PROBE, builds, null, fused ? filter : null).create(0);
        Operator before = new FilterOperator.Factory(filter, PROBE).create(0);
        List<List<Object>> rows = new ArrayList<>();
        for (Batch batch : probes) {
            Batch input = batch;
            if (!fused) {
                before.addInput(batch);
                input = before.getOutput();
                if (input == null) {
                    continue;
                }
            }
            probe.addInput(input);
            Batch output = probe.getOutput();
            if (output != null) {
                rows.addAll(output.rows());
            }
        }
        return rows;
    }

    /** Keys below {@code range} (distinct when unique), one in eight NULL when asked; a number below 4; a value. */
    private static Batch batch(Random random, int rows, int range, boolean unique, boolean withNulls) {
        long[] keys = new long[rows];
        int[] numbers = new int[rows];
        long[] values = new long[rows];
        boolean[] keyNulls = new boolean[rows];
        boolean[] valueNulls = new boolean[rows];
        List<Long> shuffled = new ArrayList<>();
        for (long key = 0; key < range; key++) {
            shuffled.add(key);
        }
        java.util.Collections.shuffle(shuffled, random);
        for (int i = 0; i < rows; i++) {
            keys[i] = unique ? shuffled.get(i) : random.nextInt(range);
            numbers[i] = random.nextInt(4);
            values[i] = random.nextInt(12);
            keyNulls[i] = withNulls && random.nextInt(8) == 0;
            valueNulls[i] = withNulls && random.nextInt(7) == 0;
        }
        return Batch.of(
                rows,
                new LongVector(DataType.BIGINT, keys, withNulls ? keyNulls : null),
                new IntVector(DataType.INTEGER, numbers),
                new LongVector(DataType.BIGINT, values, withNulls ? valueNulls : null));
    }
}
