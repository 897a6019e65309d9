package dev.faro.engine.expression;

import static dev.faro.engine.expression.Expressions.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.StringVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The filter's selection kernels ({@link Conjunct}, through {@link FilterEvaluator}) select exactly the rows where the
 * old path, the predicate's {@link Evaluator} over the whole batch, yields TRUE: random columns with and without
 * NULLs, empty batches, every kernel and the generic fallback; and {@link LikePattern} agrees with the backtracking
 * LIKE matcher.
 */
class FilterKernelTest {

    private static final Schema SCHEMA = Schema.of(
            new Column("n", DataType.INTEGER),
            new Column("day", DataType.DATE),
            new Column("q", DataType.BIGINT),
            new Column("price", DataType.decimal(2)),
            new Column("name", DataType.varchar(20)),
            new Column("other", DataType.DATE),
            new Column("x", DataType.DOUBLE));

    private static final String[] WORDS = {"MAIL", "SHIP", "AIR", "special", "requests", "PROMO", "BRASS", "x"};

    private static List<Expression> predicates() {
        return List.of(
                lt(col("n"), lit(5)),
                le(col("n"), intLit(5)),
                gt(col("n"), lit(-3)),
                ge(col("n"), lit(Long.MAX_VALUE)),
                lt(col("n"), lit(Long.MIN_VALUE)),
                eq(col("n"), lit(0)),
                ne(col("n"), lit(0)),
                gt(lit(4), col("n")), // constant on the left
                lt(col("n"), decimal("2.5")), // the column's scale cannot hold the constant: generic
                and(
                        ge(col("day"), date("1994-01-01")),
                        lt(col("day"), date("1995-01-01")),
                        between(col("price"), decimal("0.05"), decimal("0.07")),
                        lt(col("q"), lit(24))), // Q6's shape
                between(col("price"), decimal("0.07"), decimal("0.05")), // empty range
                and(lt(col("day"), col("other")), ge(col("q"), lit(3))),
                le(col("other"), col("day")),
                gt(col("other"), col("day")),
                ge(col("day"), col("other")),
                eq(col("day"), col("other")),
                ne(col("other"), col("day")),
                eq(col("name"), lit("MAIL")),
                ne(col("name"), lit("MAIL")),
                in(col("name"), "MAIL", "SHIP"),
                in(substring(col("name"), 1, 2), "MA", "SH", "sp"), // Q22's shape
                in(substring(col("name"), 3, 4), "IL", "AIR", "ecia", ""), // past the end: shorter or empty
                in(substring(col("name"), 2, 1), lit("I"), nullLiteral(DataType.varchar(1))), // generic (NULL)
                in(col("name"), lit("MAIL"), nullLiteral(DataType.varchar(4))), // generic (NULL in the list)
                like(col("name"), "%special%requests%"),
                notLike(col("name"), "%special%requests%"),
                like(col("name"), "PROMO%"),
                like(col("name"), "%BRASS"),
                like(col("name"), "M_IL%"),
                and(notLike(col("name"), "%x%"), gt(col("price"), decimal("1.00")), ne(col("q"), lit(7))),
                or(lt(col("n"), lit(0)), eq(col("name"), lit("AIR"))), // generic
                and(gt(col("x"), lit(0.5)), isNull(col("n"))), // generic terms
                not(eq(col("q"), lit(3))));
    }

    @Test
    void kernelsSelectWhatTheEvaluatorSaysIsTrue() {
        Random random = new Random(42);
        for (boolean withNulls : new boolean[] {false, true}) {
            for (int rows : new int[] {0, 1, 7, 1000, 3000}) {
                Batch batch = randomBatch(random, rows, withNulls);
                for (Expression predicate : predicates()) {
                    assertThat(selected(predicate, batch))
                            .as("%s over %d rows, nulls %s", predicate, rows, withNulls)
                            .containsExactlyElementsOf(oldPath(predicate, batch));
                }
            }
        }
    }

    @Test
    void anEvaluatorIsReusedAcrossBatchesOfDifferentSizes() {
        Random random = new Random(7);
        Expression predicate = and(lt(col("n"), lit(5)), like(col("name"), "%A%"), gt(col("x"), lit(0.0)));
        FilterEvaluator filter = new FilterEvaluator(predicate, SCHEMA);
        for (int rows : new int[] {3000, 0, 10, 5000, 1}) {
            Batch batch = randomBatch(random, rows, true);
            int count = filter.filter(batch);
            assertThat(Arrays.stream(filter.selection(), 0, count).boxed().toList())
                    .containsExactlyElementsOf(oldPath(predicate, batch));
        }
    }

    @Test
    void likePatternAgreesWithTheBacktrackingMatcher() {
        Random random = new Random(3);
        String alphabet = "ab%_";
        for (int p = 0; p < 2000; p++) {
            String pattern = randomText(random, alphabet, random.nextInt(6));
            LikePattern compiled = new LikePattern(pattern);
            for (int t = 0; t < 30; t++) {
                String text = randomText(random, "abc", random.nextInt(8));
                assertThat(compiled.matches(text))
                        .as("'%s' LIKE '%s'", text, pattern)
                        .isEqualTo(LikeEvaluator.matches(text, pattern));
            }
        }
    }

    private static String randomText(Random random, String alphabet, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    private static List<Integer> selected(Expression predicate, Batch batch) {
        FilterEvaluator filter = new FilterEvaluator(predicate, SCHEMA);
        int count = filter.filter(batch);
        return Arrays.stream(filter.selection(), 0, count).boxed().toList();
    }

    /** The rows where the predicate's evaluator over the whole batch is TRUE (the path before the kernels). */
    private static List<Integer> oldPath(Expression predicate, Batch batch) {
        BooleanVector result =
                (BooleanVector) ExpressionCompiler.compile(predicate, SCHEMA).evaluate(batch);
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < batch.rowCount(); i++) {
            if (result.get(i) && !result.isNull(i)) {
                rows.add(i);
            }
        }
        return rows;
    }

    /** A batch whose vectors are longer than its row count (rows beyond it are garbage). */
    private static Batch randomBatch(Random random, int rows, boolean withNulls) {
        int capacity = rows + 5;
        int[] n = new int[capacity];
        int[] day = new int[capacity];
        long[] q = new long[capacity];
        long[] price = new long[capacity];
        String[] name = new String[capacity];
        int[] other = new int[capacity];
        double[] x = new double[capacity];
        boolean[][] nulls = new boolean[6][capacity];
        for (int i = 0; i < capacity; i++) {
            n[i] = random.nextInt(20) - 10;
            day[i] = 8500 + random.nextInt(1000); // around 1993-1996
            q[i] = random.nextInt(50);
            price[i] = random.nextInt(12);
            name[i] =
                    WORDS[random.nextInt(WORDS.length)] + (random.nextBoolean() ? "" : " " + WORDS[random.nextInt(8)]);
            other[i] = 8500 + random.nextInt(1000);
            x[i] = random.nextDouble();
            for (int c = 0; c < nulls.length; c++) {
                nulls[c][i] = withNulls && random.nextInt(5) == 0;
            }
            if (nulls[4][i]) {
                name[i] = null;
            }
        }
        return Batch.of(
                rows,
                new IntVector(DataType.INTEGER, n, withNulls ? nulls[0] : null),
                new IntVector(DataType.DATE, day, withNulls ? nulls[1] : null),
                new LongVector(DataType.BIGINT, q, withNulls ? nulls[2] : null),
                new LongVector(DataType.decimal(2), price, withNulls ? nulls[3] : null),
                new StringVector(DataType.varchar(20), name),
                new IntVector(DataType.DATE, other, withNulls ? nulls[5] : null),
                new dev.faro.engine.vector.DoubleVector(DataType.DOUBLE, x));
    }
}
