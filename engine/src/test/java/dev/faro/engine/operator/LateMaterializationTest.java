package dev.faro.engine.operator;

import static dev.faro.engine.expression.Expressions.col;
import static dev.faro.engine.expression.Expressions.gt;
import static dev.faro.engine.expression.Expressions.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.exchange.RequiredColumns;
import dev.faro.engine.expression.Expression;
import dev.faro.engine.plan.Filter;
import dev.faro.engine.plan.HashJoin;
import dev.faro.engine.plan.JoinType;
import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.plan.Plans;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.StringVector;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Late materialisation: a filter or join probe told that nothing above reads some output columns emits, in every
 * column that is read, exactly what the old path (every column gathered) emits, for batches where no row, some rows or
 * every row passes, with NULLs; and the plan analysis flags exactly the columns nothing above a node reads.
 */
class LateMaterializationTest {

    private static final Schema T = Schema.of(
            new Column("k", DataType.BIGINT), new Column("s", DataType.varchar(8)), new Column("n", DataType.INTEGER));
    private static final Schema B = Schema.of(new Column("bk", DataType.BIGINT), new Column("b", DataType.INTEGER));

    @Test
    void filterGathersOnlyTheColumnsReadAboveAndTheyEqualTheOldPath() {
        Random random = new Random(5);
        Expression predicate = gt(col("n"), lit(40L));
        boolean[] unread = {false, true, false};
        Operator all = new FilterOperator.Factory(predicate, T).create(0);
        Operator late = new FilterOperator.Factory(predicate, T, unread).create(0);
        for (int rows : new int[] {0, 1, 100, 3000}) {
            for (int passing : new int[] {0, 50, 100}) {
                Batch batch = batch(random, rows, passing);
                List<List<Object>> expected = outputs(all, batch, unread);
                assertThat(outputs(late, batch, unread))
                        .as("rows %d, %d %% passing", rows, passing)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void joinProbeMaterializesOnlyTheColumnsReadAboveAndTheyEqualTheOldPath() {
        Random random = new Random(11);
        JoinBuildOperator.Factory builds = new JoinBuildOperator.Factory(B, List.of("bk"));
        Operator builder = builds.create(0);
        long[] keys = new long[500];
        int[] values = new int[500];
        boolean[] nulls = new boolean[500];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = random.nextInt(300);
            values[i] = i;
            nulls[i] = random.nextInt(10) == 0;
        }
        builder.addInput(
                Batch.of(500, new LongVector(DataType.BIGINT, keys, nulls), new IntVector(DataType.INTEGER, values)));
        builder.finish();
        builds.complete(2);
        for (JoinType type : JoinType.values()) {
            HashJoin join = new HashJoin(
                    type,
                    Plans.scan("t", T, "k", "s", "n"),
                    Plans.scan("b", B, "bk", "b"),
                    List.of("k"),
                    List.of("bk"),
                    null,
                    List.of());
            int columns = join.outputSchema().size();
            boolean[] unread = new boolean[columns];
            for (int c = 0; c < columns; c += 2) {
                unread[c] = true; // every other column: probe and build columns both
            }
            Operator all = new HashJoinProbeOperator.Factory(join, T, builds).create(0);
            Operator late = new HashJoinProbeOperator.Factory(join, T, builds, unread).create(0);
            for (int rows : new int[] {0, 1, 700}) {
                Batch batch = batch(random, rows, 50);
                assertThat(outputs(late, batch, unread))
                        .as("%s join, %d rows", type, rows)
                        .isEqualTo(outputs(all, batch, unread));
            }
        }
    }

    @Test
    void planAnalysisFlagsTheColumnsNothingAboveReads() {
        Filter filter = Plans.scan("t", T, "k", "s", "n").filter(gt(col("n"), lit(1L)));
        HashJoin join = filter.join(Plans.scan("b", B, "bk", "b"), List.of("k"), List.of("bk"));
        PlanNode root = join.select("s");
        RequiredColumns analysis = RequiredColumns.of(root);
        // above the filter: the join reads k (its key) and the select reads s; n only the filter itself
        assertThat(analysis.unread(filter)).containsExactly(false, false, true);
        // above the join: only s
        assertThat(analysis.unread(join)).containsExactly(true, false, true, true, true);
        assertThat(analysis.unread(root)).containsExactly(false);
    }

    @Test
    void aNodeOutsideTheAnalysedPlanHasEveryColumnRead() {
        PlanNode root = Plans.scan("t", T, "k", "s", "n").select("s");
        RequiredColumns analysis = RequiredColumns.of(root);
        Filter elsewhere = Plans.scan("t", T, "k", "s", "n").filter(gt(col("n"), lit(1L)));
        assertThat(analysis.unread(elsewhere)).containsExactly(false, false, false);
    }

    /** The rows of every output batch for {@code input}, the unread columns left out. */
    private static List<List<Object>> outputs(Operator operator, Batch input, boolean[] unread) {
        operator.addInput(input);
        Batch output = operator.getOutput();
        List<List<Object>> rows = new ArrayList<>();
        if (output == null) {
            return rows;
        }
        for (List<Object> row : output.rows()) {
            List<Object> read = new ArrayList<>();
            for (int c = 0; c < row.size(); c++) {
                if (!unread[c]) {
                    read.add(row.get(c));
                }
            }
            rows.add(read);
        }
        return rows;
    }

    /** {@code rows} rows of T; n is below 100, above 40 in about {@code passing} % of the rows; NULLs in k and s. */
    private static Batch batch(Random random, int rows, int passing) {
        long[] keys = new long[rows];
        boolean[] keyNulls = new boolean[rows];
        String[] strings = new String[rows];
        int[] numbers = new int[rows];
        for (int i = 0; i < rows; i++) {
            keys[i] = random.nextInt(400);
            keyNulls[i] = random.nextInt(12) == 0;
            strings[i] = random.nextInt(9) == 0 ? null : "s" + random.nextInt(1000);
            numbers[i] = random.nextInt(100) < passing ? 41 + random.nextInt(59) : random.nextInt(41);
        }
        return Batch.of(
                rows,
                new LongVector(DataType.BIGINT, keys, keyNulls),
                new StringVector(DataType.varchar(8), strings),
                new IntVector(DataType.INTEGER, numbers));
    }
}
