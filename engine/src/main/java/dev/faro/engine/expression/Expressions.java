package dev.faro.engine.expression;

import dev.faro.engine.vector.DataType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Static factories for hand-written expressions; {@code import static dev.faro.engine.expression.Expressions.*}.
 * Example: {@code and(ge(col("o_orderdate"), date("1993-07-01")), lt(col("o_orderdate"), date("1993-10-01")))}.
 */
public final class Expressions {

    private Expressions() {}

    public static ColumnReference col(String name) {
        return new ColumnReference(name);
    }

    /** A BIGINT literal. */
    public static Literal lit(long value) {
        return new Literal(DataType.BIGINT, Long.toString(value));
    }

    /** An INTEGER literal. */
    public static Literal intLit(int value) {
        return new Literal(DataType.INTEGER, Integer.toString(value));
    }

    /** A DOUBLE literal. */
    public static Literal lit(double value) {
        return new Literal(DataType.DOUBLE, Double.toString(value));
    }

    /** A VARCHAR literal (its max length is its length, at least 1). */
    public static Literal lit(String value) {
        return new Literal(DataType.varchar(Math.max(1, value.length())), value);
    }

    public static Literal lit(boolean value) {
        return new Literal(DataType.BOOLEAN, Boolean.toString(value));
    }

    /** A DECIMAL literal at the scale of its text: {@code decimal("0.05")} is DECIMAL(2) 5. */
    public static Literal decimal(String value) {
        return new Literal(DataType.decimal(Math.max(0, new BigDecimal(value).scale())), value);
    }

    /** A DATE literal, {@code "1995-03-15"}. */
    public static Literal date(String isoDate) {
        return new Literal(DataType.DATE, LocalDate.parse(isoDate).toString());
    }

    /** A NULL of {@code type}. */
    public static Literal nullLiteral(DataType type) {
        return new Literal(type, null);
    }

    public static Arithmetic add(Expression left, Expression right) {
        return new Arithmetic(Arithmetic.Operator.ADD, left, right);
    }

    public static Arithmetic sub(Expression left, Expression right) {
        return new Arithmetic(Arithmetic.Operator.SUBTRACT, left, right);
    }

    public static Arithmetic mul(Expression left, Expression right) {
        return new Arithmetic(Arithmetic.Operator.MULTIPLY, left, right);
    }

    /** Division; always DOUBLE (NULL on division by zero). */
    public static Arithmetic div(Expression left, Expression right) {
        return new Arithmetic(Arithmetic.Operator.DIVIDE, left, right);
    }

    public static Comparison eq(Expression left, Expression right) {
        return new Comparison(Comparison.Operator.EQUAL, left, right);
    }

    public static Comparison ne(Expression left, Expression right) {
        return new Comparison(Comparison.Operator.NOT_EQUAL, left, right);
    }

    public static Comparison lt(Expression left, Expression right) {
        return new Comparison(Comparison.Operator.LESS_THAN, left, right);
    }

    public static Comparison le(Expression left, Expression right) {
        return new Comparison(Comparison.Operator.LESS_THAN_OR_EQUAL, left, right);
    }

    public static Comparison gt(Expression left, Expression right) {
        return new Comparison(Comparison.Operator.GREATER_THAN, left, right);
    }

    public static Comparison ge(Expression left, Expression right) {
        return new Comparison(Comparison.Operator.GREATER_THAN_OR_EQUAL, left, right);
    }

    public static Expression and(Expression... terms) {
        return terms.length == 1 ? terms[0] : new And(List.of(terms));
    }

    public static Expression or(Expression... terms) {
        return terms.length == 1 ? terms[0] : new Or(List.of(terms));
    }

    public static Not not(Expression operand) {
        return new Not(operand);
    }

    public static IsNull isNull(Expression operand) {
        return new IsNull(operand);
    }

    public static Not isNotNull(Expression operand) {
        return new Not(new IsNull(operand));
    }

    /** {@code value IN (literals...)}. */
    public static InList in(Expression value, Literal... list) {
        return new InList(value, List.of(list));
    }

    /** {@code value IN ('a', 'b', ...)} with string literals. */
    public static InList in(Expression value, String... list) {
        List<Expression> literals = new ArrayList<>();
        for (String element : list) {
            literals.add(lit(element));
        }
        return new InList(value, literals);
    }

    /** {@code value IN (1, 2, ...)} with BIGINT literals. */
    public static InList in(Expression value, long... list) {
        List<Expression> literals = new ArrayList<>();
        for (long element : list) {
            literals.add(lit(element));
        }
        return new InList(value, literals);
    }

    public static Between between(Expression value, Expression low, Expression high) {
        return new Between(value, low, high);
    }

    public static Like like(Expression value, String pattern) {
        return new Like(value, pattern);
    }

    public static Not notLike(Expression value, String pattern) {
        return new Not(new Like(value, pattern));
    }

    public static Case.When when(Expression condition, Expression value) {
        return new Case.When(condition, value);
    }

    /** {@code CASE WHEN ... ELSE otherwise END}. */
    public static Case caseWhen(Expression otherwise, Case.When... whens) {
        return new Case(List.of(whens), otherwise);
    }

    /** {@code CASE WHEN condition THEN value ELSE otherwise END}. */
    public static Case caseWhen(Expression condition, Expression value, Expression otherwise) {
        return new Case(List.of(new Case.When(condition, value)), otherwise);
    }

    public static ExtractYear year(Expression date) {
        return new ExtractYear(date);
    }

    public static Substring substring(Expression value, int start, int length) {
        return new Substring(value, start, length);
    }

    public static Cast cast(Expression operand, DataType type) {
        return new Cast(operand, type);
    }

    public static Cast toDouble(Expression operand) {
        return new Cast(operand, DataType.DOUBLE);
    }
}
