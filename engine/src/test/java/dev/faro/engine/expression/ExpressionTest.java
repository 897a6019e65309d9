package dev.faro.engine.expression;

import static dev.faro.engine.exec.TestTables.row;
import static dev.faro.engine.expression.Expressions.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.engine.exec.TestTables;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Vector;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExpressionTest {

    private static final Schema SCHEMA = Schema.of(
            new Column("price", DataType.decimal(2)),
            new Column("discount", DataType.decimal(2)),
            new Column("quantity", DataType.BIGINT),
            new Column("day", DataType.DATE),
            new Column("name", DataType.varchar(20)),
            new Column("n", DataType.INTEGER),
            new Column("x", DataType.DOUBLE));

    private static final Batch BATCH = TestTables.table(
                    "t",
                    SCHEMA,
                    List.of(
                            row(
                                    new BigDecimal("12.34"),
                                    new BigDecimal("0.05"),
                                    3L,
                                    "1995-03-15",
                                    "forest green",
                                    7,
                                    1.5),
                            row(
                                    new BigDecimal("0.01"),
                                    new BigDecimal("0.10"),
                                    null,
                                    "1992-12-31",
                                    "PROMO BRASS",
                                    null,
                                    -2.0),
                            row(null, new BigDecimal("0.00"), 5L, "2000-02-29", null, 0, 0.0)),
                    100)
            .batches()
            .getFirst();

    private static List<Object> eval(Expression expression) {
        Vector vector = ExpressionCompiler.compile(expression, SCHEMA).evaluate(BATCH);
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < BATCH.rowCount(); i++) {
            values.add(vector.getObject(i));
        }
        return values;
    }

    private static DataType type(Expression expression) {
        return ExpressionTypes.typeOf(expression, SCHEMA);
    }

    @Test
    void decimalProductAddsScalesAndIsExact() {
        Expression revenue = mul(col("price"), sub(decimal("1"), col("discount")));
        assertThat(type(revenue)).isEqualTo(DataType.decimal(4));
        // 12.34 * 0.95 = 11.7230; 0.01 * 0.90 = 0.0090
        assertThat(eval(revenue)).containsExactly(117230L, 90L, null);
    }

    @Test
    void decimalSumKeepsTheLargerScaleAndMixesWithIntegers() {
        assertThat(type(add(col("price"), col("quantity")))).isEqualTo(DataType.decimal(2));
        assertThat(eval(add(col("price"), col("quantity")))).containsExactly(1534L, null, null);
        assertThat(eval(add(col("n"), col("n")))).containsExactly(14L, null, 0L);
    }

    @Test
    void divisionIsDoubleAndNullOnZero() {
        assertThat(type(div(col("price"), col("discount")))).isEqualTo(DataType.DOUBLE);
        List<Object> values = eval(div(col("price"), col("discount")));
        assertThat((Double) values.get(0)).isCloseTo(246.8, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(values.get(2)).isNull();
        assertThat(eval(toDouble(col("price")))).containsExactly(12.34, 0.01, null);
    }

    @Test
    void comparisonsAcrossScalesDatesAndStrings() {
        assertThat(eval(lt(col("price"), lit(1)))).containsExactly(false, true, null);
        assertThat(eval(ge(col("discount"), decimal("0.05")))).containsExactly(true, true, false);
        assertThat(eval(lt(col("day"), date("1995-03-15")))).containsExactly(false, true, false);
        assertThat(eval(eq(col("name"), lit("forest green")))).containsExactly(true, false, null);
        assertThat(eval(between(col("discount"), decimal("0.05"), decimal("0.07"))))
                .containsExactly(true, false, false);
        assertThat(eval(gt(col("x"), col("n")))).containsExactly(false, null, false);
    }

    @Test
    void likeMatchesPercentAndUnderscore() {
        assertThat(eval(like(col("name"), "forest%"))).containsExactly(true, false, null);
        assertThat(eval(like(col("name"), "%BRASS"))).containsExactly(false, true, null);
        assertThat(eval(like(col("name"), "%e_t%"))).containsExactly(true, false, null);
        assertThat(eval(notLike(col("name"), "PROMO%"))).containsExactly(true, false, null);
        assertThat(LikeEvaluator.matches("special requests pending", "%special%requests%"))
                .isTrue();
        assertThat(LikeEvaluator.matches("specialrequests", "%special%requests%"))
                .isTrue();
        assertThat(LikeEvaluator.matches("requests special", "%special%requests%"))
                .isFalse();
        assertThat(LikeEvaluator.matches("abc", "a_c")).isTrue();
        assertThat(LikeEvaluator.matches("abbc", "a_c")).isFalse();
        assertThat(LikeEvaluator.matches("", "%")).isTrue();
    }

    @Test
    void threeValuedLogic() {
        Expression unknown = gt(col("quantity"), lit(4)); // true? no: 3 > 4 false, null, 5 > 4 true
        assertThat(eval(unknown)).containsExactly(false, null, true);
        assertThat(eval(and(unknown, lit(true)))).containsExactly(false, null, true);
        assertThat(eval(and(unknown, lit(false)))).containsExactly(false, false, false);
        assertThat(eval(or(unknown, lit(true)))).containsExactly(true, true, true);
        assertThat(eval(or(unknown, lit(false)))).containsExactly(false, null, true);
        assertThat(eval(not(unknown))).containsExactly(true, null, false);
        assertThat(eval(isNull(col("quantity")))).containsExactly(false, true, false);
        assertThat(eval(isNotNull(col("name")))).containsExactly(true, true, false);
    }

    @Test
    void inListCaseYearSubstring() {
        assertThat(eval(in(col("quantity"), 1, 3, 5))).containsExactly(true, null, true);
        assertThat(eval(in(col("name"), "PROMO BRASS", "x"))).containsExactly(false, true, null);
        Expression promo = caseWhen(like(col("name"), "PROMO%"), col("price"), lit(0));
        assertThat(type(promo)).isEqualTo(DataType.decimal(2));
        assertThat(eval(promo)).containsExactly(0L, 1L, 0L);
        assertThat(eval(caseWhen(nullLiteral(DataType.BIGINT), when(eq(col("n"), intLit(7)), lit(1)))))
                .containsExactly(1L, null, null);
        assertThat(eval(year(col("day")))).containsExactly(1995, 1992, 2000);
        assertThat(eval(substring(col("name"), 1, 6))).containsExactly("forest", "PROMO ", null);
        assertThat(eval(add(col("day"), intLit(1))))
                .containsExactly(
                        (int) java.time.LocalDate.parse("1995-03-16").toEpochDay(),
                        (int) java.time.LocalDate.parse("1993-01-01").toEpochDay(),
                        (int) java.time.LocalDate.parse("2000-03-01").toEpochDay());
    }

    @Test
    void yearMatchesJavaTimeOverManyDays() {
        for (int day = -800_000; day < 800_000; day += 97) {
            assertThat(UnaryEvaluator.year(day))
                    .isEqualTo(java.time.LocalDate.ofEpochDay(day).getYear());
        }
    }

    @Test
    void overflowAndBadTypesFailLoudly() {
        assertThatThrownBy(() -> type(add(col("name"), lit(1)))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> type(col("missing"))).hasMessageContaining("price");
        Expression huge = mul(col("quantity"), lit(Long.MAX_VALUE));
        assertThatThrownBy(() -> eval(huge)).isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> decimal("x")).isInstanceOf(NumberFormatException.class);
    }
}
