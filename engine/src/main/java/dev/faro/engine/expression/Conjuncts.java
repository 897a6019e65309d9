package dev.faro.engine.expression;

import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.TypeKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Splits a filter predicate into its top-level AND terms and turns each into a {@link Conjunct} selection kernel: a
 * column compared with a constant (or BETWEEN two) into a range test on the column's own values, comparisons of two
 * INTEGER/DATE columns, string equality, IN and LIKE into string kernels, anything else into a generic kernel over its
 * evaluator. Ranges over the same column are intersected, and the kernels ordered cheap first (AND is commutative in
 * a filter: a row passes when every term is TRUE). Coordination code.
 */
final class Conjuncts {

    private Conjuncts() {}

    /** The kernels of {@code predicate} (type-checked BOOLEAN) over batches of {@code input}. */
    static Conjunct[] compile(Expression predicate, Schema input) {
        List<Expression> terms = new ArrayList<>();
        flatten(predicate, terms);
        List<Conjunct> kernels = new ArrayList<>();
        for (Expression term : terms) {
            Conjunct kernel = kernel(term, input);
            kernels.add(kernel != null ? kernel : new Conjunct.Generic(ExpressionCompiler.compile(term, input)));
        }
        List<Conjunct> merged = mergeRanges(kernels);
        merged.sort(Comparator.comparingInt(Conjunct::cost)); // stable: the plan's order within a cost class
        return merged.toArray(new Conjunct[0]);
    }

    private static void flatten(Expression expression, List<Expression> terms) {
        switch (expression) {
            case And and -> and.terms().forEach(term -> flatten(term, terms));
            case Between b -> {
                terms.add(new Comparison(Comparison.Operator.GREATER_THAN_OR_EQUAL, b.value(), b.low()));
                terms.add(new Comparison(Comparison.Operator.LESS_THAN_OR_EQUAL, b.value(), b.high()));
            }
            default -> terms.add(expression);
        }
    }

    /** A specialised kernel for {@code term}, or null when it has none. */
    private static Conjunct kernel(Expression term, Schema input) {
        return switch (term) {
            case Comparison c -> comparison(c, input);
            case Like like
            when like.value() instanceof ColumnReference column ->
                new Conjunct.Like(input.indexOf(column.name()), like.pattern(), false);
            case Not(Like like)
            when like.value() instanceof ColumnReference column ->
                new Conjunct.Like(input.indexOf(column.name()), like.pattern(), true);
            case InList in
            when in.value() instanceof ColumnReference column && isVarchar(column, input) -> {
                String[] constants = stringConstants(in);
                yield constants == null ? null : new Conjunct.StringIn(input.indexOf(column.name()), constants, false);
            }
            case InList in
            when in.value() instanceof Substring substring
                    && substring.value() instanceof ColumnReference column
                    && isVarchar(column, input) -> {
                String[] constants = stringConstants(in);
                yield constants == null
                        ? null
                        : new Conjunct.StringIn(
                                input.indexOf(column.name()), constants, substring.start(), substring.length());
            }
            default -> null;
        };
    }

    /** The list's VARCHAR constants, or null when one is NULL (three-valued: left to the evaluator) or not VARCHAR. */
    private static String[] stringConstants(InList in) {
        String[] constants = new String[in.list().size()];
        for (int i = 0; i < constants.length; i++) {
            Literal literal = (Literal) in.list().get(i);
            if (literal.value() == null || literal.type().kind() != TypeKind.VARCHAR) {
                return null;
            }
            constants[i] = literal.value();
        }
        return constants;
    }

    private static Conjunct comparison(Comparison c, Schema input) {
        Comparison.Operator operator = c.operator();
        Expression left = c.left();
        Expression right = c.right();
        if (left instanceof Literal && right instanceof ColumnReference) {
            operator = flip(operator);
            Expression swap = left;
            left = right;
            right = swap;
        }
        if (!(left instanceof ColumnReference column)) {
            return null;
        }
        int index = input.indexOf(column.name());
        DataType type = input.type(index);
        if (right instanceof ColumnReference other) {
            int otherIndex = input.indexOf(other.name());
            return type.isInt() && input.type(otherIndex).isInt()
                    ? new Conjunct.IntColumns(operator, index, otherIndex)
                    : null;
        }
        if (!(right instanceof Literal literal) || literal.value() == null) {
            return null;
        }
        if (type.kind() == TypeKind.VARCHAR) {
            if (literal.type().kind() != TypeKind.VARCHAR
                    || (operator != Comparison.Operator.EQUAL && operator != Comparison.Operator.NOT_EQUAL)) {
                return null;
            }
            return new Conjunct.StringIn(
                    index, new String[] {literal.value()}, operator == Comparison.Operator.NOT_EQUAL);
        }
        if (!type.isInt() && !type.isLong()) {
            return null;
        }
        if (!ComparisonEvaluator.comparesAsValueLongs(type, literal)) {
            return null; // e.g. the constant has digits the column's scale cannot hold: compare in the evaluator
        }
        long constant = ComparisonEvaluator.longConstant(type, literal);
        if (operator == Comparison.Operator.NOT_EQUAL) {
            return new Conjunct.NotEqual(index, constant);
        }
        long low = Long.MIN_VALUE;
        long high = Long.MAX_VALUE;
        switch (operator) {
            case EQUAL -> {
                low = constant;
                high = constant;
            }
            case LESS_THAN -> {
                if (constant == Long.MIN_VALUE) {
                    return range(type, index, 1, 0); // nothing is less than the smallest long
                }
                high = constant - 1;
            }
            case LESS_THAN_OR_EQUAL -> high = constant;
            case GREATER_THAN -> {
                if (constant == Long.MAX_VALUE) {
                    return range(type, index, 1, 0);
                }
                low = constant + 1;
            }
            case GREATER_THAN_OR_EQUAL -> low = constant;
            case NOT_EQUAL -> throw new AssertionError();
        }
        return range(type, index, low, high);
    }

    private static Conjunct range(DataType type, int index, long low, long high) {
        return type.isInt() ? new Conjunct.IntRange(index, low, high) : new Conjunct.LongRange(index, low, high);
    }

    private static boolean isVarchar(ColumnReference column, Schema input) {
        return input.column(column.name()).type().kind() == TypeKind.VARCHAR;
    }

    static Comparison.Operator flip(Comparison.Operator operator) {
        return switch (operator) {
            case EQUAL, NOT_EQUAL -> operator;
            case LESS_THAN -> Comparison.Operator.GREATER_THAN;
            case LESS_THAN_OR_EQUAL -> Comparison.Operator.GREATER_THAN_OR_EQUAL;
            case GREATER_THAN -> Comparison.Operator.LESS_THAN;
            case GREATER_THAN_OR_EQUAL -> Comparison.Operator.LESS_THAN_OR_EQUAL;
        };
    }

    /** Intersects the range kernels of one column into one (Q6's two date bounds become one test). */
    private static List<Conjunct> mergeRanges(List<Conjunct> kernels) {
        List<Conjunct> merged = new ArrayList<>();
        for (Conjunct kernel : kernels) {
            int same = -1;
            for (int i = 0; i < merged.size() && same < 0; i++) {
                if (sameRangeColumn(merged.get(i), kernel)) {
                    same = i;
                }
            }
            if (same < 0) {
                merged.add(kernel);
            } else {
                merged.set(same, intersect(merged.get(same), kernel));
            }
        }
        return merged;
    }

    private static boolean sameRangeColumn(Conjunct a, Conjunct b) {
        return (a instanceof Conjunct.IntRange x && b instanceof Conjunct.IntRange y && x.column == y.column)
                || (a instanceof Conjunct.LongRange x2 && b instanceof Conjunct.LongRange y2 && x2.column == y2.column);
    }

    private static Conjunct intersect(Conjunct a, Conjunct b) {
        if (a instanceof Conjunct.IntRange x && b instanceof Conjunct.IntRange y) {
            return new Conjunct.IntRange(x.column, Math.max(x.low, y.low), Math.min(x.high, y.high));
        }
        Conjunct.LongRange x = (Conjunct.LongRange) a;
        Conjunct.LongRange y = (Conjunct.LongRange) b;
        return new Conjunct.LongRange(x.column, Math.max(x.low, y.low), Math.min(x.high, y.high));
    }
}
