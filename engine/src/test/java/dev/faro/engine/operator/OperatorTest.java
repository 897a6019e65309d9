package dev.faro.engine.operator;

import static dev.faro.engine.exec.TestTables.row;
import static dev.faro.engine.expression.Expressions.*;
import static dev.faro.engine.plan.Plans.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.exec.Catalog;
import dev.faro.engine.exec.ExecutionContext;
import dev.faro.engine.exec.QueryExecutor;
import dev.faro.engine.exec.TestTables;
import dev.faro.engine.plan.JoinType;
import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Table;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each operator through the executor on tiny hand-made tables, against hand-computed rows. */
class OperatorTest {

    private static final Schema T = Schema.of(
            new Column("k", DataType.BIGINT),
            new Column("g", DataType.varchar(5)),
            new Column("v", DataType.decimal(2)),
            new Column("d", DataType.DOUBLE));
    private static final Schema U =
            Schema.of(new Column("uk", DataType.INTEGER), new Column("name", DataType.varchar(8)));

    private static final Table TT = TestTables.table(
            "t",
            T,
            List.of(
                    row(1L, "a", new BigDecimal("1.50"), 1.0),
                    row(2L, "b", new BigDecimal("2.25"), 2.0),
                    row(3L, "a", null, 3.0),
                    row(4L, "c", new BigDecimal("4.00"), null),
                    row(5L, null, new BigDecimal("0.25"), 5.0),
                    row(null, "b", new BigDecimal("1.00"), 6.0)),
            2);
    private static final Table UU = TestTables.table(
            "u",
            U,
            List.of(row(1, "one"), row(2, "two"), row(2, "deux"), row(4, "four"), row(9, "nine"), row(null, "nil")),
            4);

    private static List<List<Object>> run(PlanNode plan, int threads) {
        return QueryExecutor.execute(plan, ExecutionContext.local(Catalog.of(List.of(TT, UU)), threads))
                .rows();
    }

    private static List<List<Object>> run(PlanNode plan) {
        return run(plan, 2);
    }

    @Test
    void scanFilterProject() {
        PlanNode plan = scan(TT, "k", "v")
                .filter(gt(col("v"), decimal("1.00")))
                .project(as(col("k"), "k"), as(mul(col("v"), lit(2)), "twice"));
        assertThat(run(plan)).containsExactlyInAnyOrder(row(1L, 300L), row(2L, 450L), row(4L, 800L));
    }

    @Test
    void innerJoinWithDuplicatesAndNullKeys() {
        PlanNode plan = scan(TT, "k", "g")
                .join(scan(UU, "uk", "name"), keys("k"), keys("uk"))
                .select("k", "name");
        assertThat(run(plan))
                .containsExactlyInAnyOrder(row(1L, "one"), row(2L, "two"), row(2L, "deux"), row(4L, "four"));
    }

    @Test
    void semiAntiAndLeftJoins() {
        PlanNode build = scan(UU, "uk", "name");
        assertThat(run(scan(TT, "k").join(JoinType.SEMI, build, "k", "uk")))
                .containsExactlyInAnyOrder(row(1L), row(2L), row(4L));
        assertThat(run(scan(TT, "k").join(JoinType.ANTI, build, "k", "uk")))
                .containsExactlyInAnyOrder(row(3L), row(5L), row((Object) null));
        assertThat(run(scan(TT, "k").join(JoinType.LEFT, build, "k", "uk")))
                .containsExactlyInAnyOrder(
                        row(1L, 1, "one"),
                        row(2L, 2, "two"),
                        row(2L, 2, "deux"),
                        row(3L, null, null),
                        row(4L, 4, "four"),
                        row(5L, null, null),
                        row(null, null, null));
    }

    @Test
    void joinResidualDecidesWhatMatches() {
        PlanNode build = scan(UU, "uk", "name");
        PlanNode semi =
                scan(TT, "k").join(JoinType.SEMI, build, keys("k"), keys("uk"), ne(col("name"), lit("two")), List.of());
        assertThat(run(semi)).containsExactlyInAnyOrder(row(1L), row(2L), row(4L));
        PlanNode anti =
                scan(TT, "k").join(JoinType.ANTI, build, keys("k"), keys("uk"), like(col("name"), "t%"), List.of());
        assertThat(run(anti)).containsExactlyInAnyOrder(row(1L), row(3L), row(4L), row(5L), row((Object) null));
        PlanNode inner = scan(TT, "k")
                .join(JoinType.INNER, build, keys("k"), keys("uk"), like(col("name"), "%o%"), List.of("name"));
        assertThat(run(inner)).containsExactlyInAnyOrder(row("one"), row("two"), row("four"));
    }

    @Test
    void crossJoinWithAScalar() {
        PlanNode total = scan(TT, "v").aggregate(keys(), sum(col("v"), "total"));
        PlanNode plan = scan(TT, "k", "v")
                .crossJoin(total)
                .filter(ge(mul(col("v"), lit(4)), col("total")))
                .select("k");
        assertThat(run(plan)).containsExactlyInAnyOrder(row(2L), row(4L));
    }

    @Test
    void aggregationFunctionsAndNullGroups() {
        PlanNode plan = scan(TT, "g", "v", "d", "k")
                .aggregate(
                        keys("g"),
                        sum(col("v"), "s"),
                        count(col("v"), "c"),
                        countStar("n"),
                        avg(col("d"), "a"),
                        min(col("k"), "lo"),
                        max(col("g"), "hi"),
                        countDistinct(col("g"), "dg"));
        assertThat(run(plan))
                .containsExactlyInAnyOrder(
                        row("a", 150L, 1L, 2L, 2.0, 1L, "a", 1L),
                        row("b", 325L, 2L, 2L, 4.0, 2L, "b", 1L),
                        row("c", 400L, 1L, 1L, null, 4L, "c", 1L),
                        row(null, 25L, 1L, 1L, 5.0, 5L, null, 0L));
    }

    @Test
    void globalAggregationYieldsOneRowEvenWhenEmpty() {
        assertThat(run(scan(TT, "v").aggregate(keys(), sum(col("v"), "s"), countStar("n"))))
                .containsExactly(row(900L, 6L));
        assertThat(run(scan(TT, "v")
                        .filter(lt(col("v"), lit(0)))
                        .aggregate(keys(), sum(col("v"), "s"), countStar("n"))))
                .containsExactly(row(null, 0L));
    }

    @Test
    void partialThenFinalEqualsSingle() {
        PlanNode twoPhase = scan(TT, "g", "v", "d")
                .distributedAggregate(
                        keys("g"), sum(col("v"), "s"), avg(col("d"), "a"), countStar("n"), max(col("v"), "m"));
        PlanNode single = scan(TT, "g", "v", "d")
                .aggregate(keys("g"), sum(col("v"), "s"), avg(col("d"), "a"), countStar("n"), max(col("v"), "m"));
        assertThat(run(twoPhase, 3)).containsExactlyInAnyOrderElementsOf(run(single, 1));
    }

    @Test
    void sortTopNAndLimit() {
        PlanNode sorted = scan(TT, "k", "g").sort(asc("g"), desc("k"));
        assertThat(run(sorted))
                .containsExactly(row(3L, "a"), row(1L, "a"), row(2L, "b"), row(null, "b"), row(4L, "c"), row(5L, null));
        assertThat(run(scan(TT, "k", "d").topN(2, desc("d")))).containsExactly(row(null, 6.0), row(5L, 5.0));
        assertThat(run(scan(TT, "k").sort(asc("k")).limit(3))).containsExactly(row(1L), row(2L), row(3L));
        assertThat(run(scan(TT, "k").limit(4))).hasSize(4);
        assertThat(run(scan(TT, "k").limit(0))).isEmpty();
    }
}
