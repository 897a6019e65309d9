package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.StringVector;

/**
 * One term of a filter's conjunction as a selection kernel: narrows a selection (ascending row positions of a batch)
 * in place to the rows where the term is TRUE, looking only at the selected rows. Each kernel is specialised to one
 * column type and test: the numeric ones are tight compactions over the column's primitive array (branch-free where no
 * NULLs are possible), the string ones loop over the selected strings; {@link Generic} runs any other term through its
 * {@link Evaluator} over the whole batch. SQL NULL is never TRUE, so a NULL row is dropped. Built by
 * {@link Conjuncts}; thread-confined (the generic kernel's evaluator may cache buffers).
 *
 * <p>Data path: allocation-free, except what a generic term's evaluator allocates.
 */
abstract sealed class Conjunct {

    /** Narrows {@code selection[0, count)} to the rows of {@code batch} where the term is TRUE; the new count. */
    abstract int narrow(Batch batch, int[] selection, int count);

    /**
     * The first term's {@link #narrow}: writes the rows of {@code [0, rows)} where the term is TRUE into {@code
     * selection} (ascending), returns their count. The range kernels read their column straight through, without the
     * identity selection in between.
     */
    int narrowAll(Batch batch, int[] selection, int rows) {
        for (int i = 0; i < rows; i++) {
            selection[i] = i;
        }
        return narrow(batch, selection, rows);
    }

    /** How much a row costs to test, for ordering the terms: cheap ones first. */
    abstract int cost();

    /** {@code low <= value <= high} on an INTEGER or DATE column (a comparison with a constant, or BETWEEN). */
    static final class IntRange extends Conjunct {
        final int column;
        final long low;
        final long high;
        /** Whether no int lies in the range. */
        private final boolean empty;
        /** The range clamped to the int values. */
        private final int intLow;

        private final int intHigh;

        IntRange(int column, long low, long high) {
            this.column = column;
            this.low = low;
            this.high = high;
            this.empty = high < low || high < Integer.MIN_VALUE || low > Integer.MAX_VALUE;
            this.intLow = Math.clamp(low, Integer.MIN_VALUE, Integer.MAX_VALUE);
            this.intHigh = Math.clamp(high, Integer.MIN_VALUE, Integer.MAX_VALUE);
        }

        @Override
        int narrow(Batch batch, int[] selection, int count) {
            if (empty) {
                return 0;
            }
            IntVector vector = (IntVector) batch.column(column);
            int[] values = vector.values();
            boolean[] nulls = vector.nulls();
            int low = intLow;
            int high = intHigh;
            int out = 0;
            if (nulls == null) {
                for (int j = 0; j < count; j++) {
                    int row = selection[j];
                    int value = values[row];
                    selection[out] = row;
                    out += value >= low & value <= high ? 1 : 0;
                }
            } else {
                for (int j = 0; j < count; j++) {
                    int row = selection[j];
                    int value = values[row];
                    selection[out] = row;
                    out += !nulls[row] & value >= low & value <= high ? 1 : 0;
                }
            }
            return out;
        }

        @Override
        int narrowAll(Batch batch, int[] selection, int rows) {
            IntVector vector = (IntVector) batch.column(column);
            if (empty || vector.nulls() != null) {
                return empty ? 0 : super.narrowAll(batch, selection, rows);
            }
            int[] values = vector.values();
            int low = intLow;
            int high = intHigh;
            int out = 0;
            for (int row = 0; row < rows; row++) {
                int value = values[row];
                selection[out] = row;
                out += value >= low & value <= high ? 1 : 0;
            }
            return out;
        }

        @Override
        int cost() {
            return 1;
        }
    }

    /** {@code low <= value <= high} on a BIGINT or DECIMAL column, the bounds at the column's scale. */
    static final class LongRange extends Conjunct {
        final int column;
        final long low;
        final long high;

        LongRange(int column, long low, long high) {
            this.column = column;
            this.low = low;
            this.high = high;
        }

        @Override
        int narrow(Batch batch, int[] selection, int count) {
            LongVector vector = (LongVector) batch.column(column);
            long[] values = vector.values();
            boolean[] nulls = vector.nulls();
            long low = this.low;
            long high = this.high;
            int out = 0;
            if (nulls == null) {
                for (int j = 0; j < count; j++) {
                    int row = selection[j];
                    long value = values[row];
                    selection[out] = row;
                    out += value >= low & value <= high ? 1 : 0;
                }
            } else {
                for (int j = 0; j < count; j++) {
                    int row = selection[j];
                    long value = values[row];
                    selection[out] = row;
                    out += !nulls[row] & value >= low & value <= high ? 1 : 0;
                }
            }
            return out;
        }

        @Override
        int narrowAll(Batch batch, int[] selection, int rows) {
            LongVector vector = (LongVector) batch.column(column);
            if (vector.nulls() != null) {
                return super.narrowAll(batch, selection, rows);
            }
            long[] values = vector.values();
            long low = this.low;
            long high = this.high;
            int out = 0;
            for (int row = 0; row < rows; row++) {
                long value = values[row];
                selection[out] = row;
                out += value >= low & value <= high ? 1 : 0;
            }
            return out;
        }

        @Override
        int cost() {
            return 1;
        }
    }

    /** {@code value <> constant} on an exact column (INTEGER, DATE, BIGINT, DECIMAL) at the column's scale. */
    static final class NotEqual extends Conjunct {
        private final int column;
        private final long constant;

        NotEqual(int column, long constant) {
            this.column = column;
            this.constant = constant;
        }

        @Override
        int narrow(Batch batch, int[] selection, int count) {
            long constant = this.constant;
            int out = 0;
            if (batch.column(column) instanceof IntVector vector) {
                int[] values = vector.values();
                boolean[] nulls = vector.nulls();
                for (int j = 0; j < count; j++) {
                    int row = selection[j];
                    selection[out] = row;
                    out += (nulls == null || !nulls[row]) && values[row] != constant ? 1 : 0;
                }
            } else {
                LongVector vector = (LongVector) batch.column(column);
                long[] values = vector.values();
                boolean[] nulls = vector.nulls();
                for (int j = 0; j < count; j++) {
                    int row = selection[j];
                    selection[out] = row;
                    out += (nulls == null || !nulls[row]) && values[row] != constant ? 1 : 0;
                }
            }
            return out;
        }

        @Override
        int cost() {
            return 1;
        }
    }

    /**
     * {@code left op right} on two INTEGER or DATE columns (Q4's, Q12's and Q21's date comparisons). The operator is
     * fixed per instance: {@code >} and {@code >=} swap the columns, so each loop is one branch-free compare.
     */
    static final class IntColumns extends Conjunct {
        /** The four tests a loop knows; the other two operators are these with the columns swapped. */
        private enum Test {
            LESS,
            LESS_OR_EQUAL,
            EQUAL,
            NOT_EQUAL
        }

        private final Test test;
        private final int left;
        private final int right;

        IntColumns(Comparison.Operator operator, int left, int right) {
            boolean swap = operator == Comparison.Operator.GREATER_THAN
                    || operator == Comparison.Operator.GREATER_THAN_OR_EQUAL;
            this.test = switch (operator) {
                case LESS_THAN, GREATER_THAN -> Test.LESS;
                case LESS_THAN_OR_EQUAL, GREATER_THAN_OR_EQUAL -> Test.LESS_OR_EQUAL;
                case EQUAL -> Test.EQUAL;
                case NOT_EQUAL -> Test.NOT_EQUAL;
            };
            this.left = swap ? right : left;
            this.right = swap ? left : right;
        }

        @Override
        int narrow(Batch batch, int[] selection, int count) {
            IntVector a = (IntVector) batch.column(left);
            IntVector b = (IntVector) batch.column(right);
            int[] x = a.values();
            int[] y = b.values();
            int out = switch (test) {
                case LESS -> less(x, y, selection, count);
                case LESS_OR_EQUAL -> lessOrEqual(x, y, selection, count);
                case EQUAL -> equal(x, y, selection, count, true);
                case NOT_EQUAL -> equal(x, y, selection, count, false);
            };
            return a.nulls() == null && b.nulls() == null ? out : dropNulls(a.nulls(), b.nulls(), selection, out);
        }

        private static int less(int[] x, int[] y, int[] selection, int count) {
            int out = 0;
            for (int j = 0; j < count; j++) {
                int row = selection[j];
                selection[out] = row;
                out += x[row] < y[row] ? 1 : 0;
            }
            return out;
        }

        private static int lessOrEqual(int[] x, int[] y, int[] selection, int count) {
            int out = 0;
            for (int j = 0; j < count; j++) {
                int row = selection[j];
                selection[out] = row;
                out += x[row] <= y[row] ? 1 : 0;
            }
            return out;
        }

        private static int equal(int[] x, int[] y, int[] selection, int count, boolean equal) {
            int out = 0;
            for (int j = 0; j < count; j++) {
                int row = selection[j];
                selection[out] = row;
                out += (x[row] == y[row]) == equal ? 1 : 0;
            }
            return out;
        }

        /** Drops the rows where either side is NULL (their comparison is NULL, not TRUE). */
        private static int dropNulls(boolean[] xNulls, boolean[] yNulls, int[] selection, int count) {
            int out = 0;
            for (int j = 0; j < count; j++) {
                int row = selection[j];
                selection[out] = row;
                out += (xNulls == null || !xNulls[row]) && (yNulls == null || !yNulls[row]) ? 1 : 0;
            }
            return out;
        }

        @Override
        int cost() {
            return 2;
        }
    }

    /**
     * {@code value IN (constants)}, {@code value = constant} or {@code value <> constant} on a VARCHAR column; also
     * {@code SUBSTRING(value, start, length) IN (constants)} (Q22's country codes), comparing the constants with the
     * value's characters in place, where the evaluator makes a substring per row of the batch.
     */
    static final class StringIn extends Conjunct {
        private final int column;
        private final String[] constants;
        private final boolean negated;
        /** SUBSTRING's start (1-based) and length, or 0 and 0 for the whole value. */
        private final int start;

        private final int length;

        StringIn(int column, String[] constants, boolean negated) {
            this(column, constants, negated, 0, 0);
        }

        /** {@code SUBSTRING(value, start, length) IN (constants)} ({@code start} and {@code length} positive). */
        StringIn(int column, String[] constants, int start, int length) {
            this(column, constants, false, start, length);
        }

        private StringIn(int column, String[] constants, boolean negated, int start, int length) {
            this.column = column;
            this.constants = constants.clone();
            this.negated = negated;
            this.start = start;
            this.length = length;
        }

        @Override
        int narrow(Batch batch, int[] selection, int count) {
            String[] values = ((StringVector) batch.column(column)).values();
            boolean negated = this.negated;
            int out = 0;
            for (int j = 0; j < count; j++) {
                int row = selection[j];
                String value = values[row];
                if (value == null) {
                    continue;
                }
                selection[out] = row;
                out += (length == 0 ? contains(value) : substringContained(value)) != negated ? 1 : 0;
            }
            return out;
        }

        private boolean contains(String value) {
            for (String constant : constants) {
                if (value.equals(constant)) {
                    return true;
                }
            }
            return false;
        }

        /** Whether SUBSTRING(value, start, length), bounded as the evaluator bounds it, is one of the constants. */
        private boolean substringContained(String value) {
            int from = Math.min(start - 1, value.length());
            int to = Math.min(value.length(), from + length);
            for (String constant : constants) {
                if (constant.length() == to - from && value.regionMatches(from, constant, 0, to - from)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        int cost() {
            return 3;
        }
    }

    /** {@code value LIKE pattern} or {@code NOT (value LIKE pattern)} on a VARCHAR column. */
    static final class Like extends Conjunct {
        private final int column;
        private final LikePattern pattern;
        private final boolean negated;

        Like(int column, String pattern, boolean negated) {
            this.column = column;
            this.pattern = new LikePattern(pattern);
            this.negated = negated;
        }

        @Override
        int narrow(Batch batch, int[] selection, int count) {
            String[] values = ((StringVector) batch.column(column)).values();
            int out = 0;
            for (int j = 0; j < count; j++) {
                int row = selection[j];
                String value = values[row];
                if (value != null && pattern.matches(value) != negated) {
                    selection[out++] = row;
                }
            }
            return out;
        }

        @Override
        int cost() {
            return 4;
        }
    }

    /** Any other term: evaluated over the whole batch, then the selected rows where it is TRUE are kept. */
    static final class Generic extends Conjunct {
        private final Evaluator evaluator;

        Generic(Evaluator evaluator) {
            this.evaluator = evaluator;
        }

        @Override
        int narrow(Batch batch, int[] selection, int count) {
            BooleanVector result = (BooleanVector) evaluator.evaluate(batch);
            boolean[] values = result.values();
            boolean[] nulls = result.nulls();
            int out = 0;
            for (int j = 0; j < count; j++) {
                int row = selection[j];
                selection[out] = row;
                out += values[row] && (nulls == null || !nulls[row]) ? 1 : 0;
            }
            return out;
        }

        @Override
        int cost() {
            return 10;
        }
    }
}
