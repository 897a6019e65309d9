package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.TypeKind;
import dev.faro.engine.vector.Vector;

/** {@code left op right} in the common domain of both sides (strings, doubles, or longs at a common scale). */
final class ComparisonEvaluator implements Evaluator {

    private final Comparison.Operator operator;
    private final Evaluator left;
    private final Evaluator right;
    private final DataType domain;
    /** Whether the right side is a non-NULL constant and the left an exact or date column at the domain's scale. */
    private final boolean constantFastPath;

    private final long constant;

    ComparisonEvaluator(Comparison.Operator operator, Evaluator left, Evaluator right) {
        this.operator = operator;
        this.left = left;
        this.right = right;
        this.domain = ExpressionTypes.comparisonDomain(left.type(), right.type());
        if (right instanceof ConstantEvaluator c && comparesAsValueLongs(left.type(), c.literal())) {
            constantFastPath = true;
            constant = longConstant(left.type(), c.literal());
        } else {
            constantFastPath = false;
            constant = 0;
        }
    }

    /**
     * Whether a value of {@code valueType} compares with {@code literal} on the value's own longs: the literal is not
     * NULL and the comparison's domain is exact (or DATE) at the value's scale, so the literal's digits fit it.
     */
    static boolean comparesAsValueLongs(DataType valueType, Literal literal) {
        DataType domain = ExpressionTypes.comparisonDomain(valueType, literal.type());
        return literal.value() != null
                && domain.kind() != TypeKind.VARCHAR
                && domain.kind() != TypeKind.DOUBLE
                && domain.kind() != TypeKind.BOOLEAN
                && ExpressionTypes.scale(valueType) == ExpressionTypes.scale(domain);
    }

    /** {@code literal} as a long at {@code valueType}'s scale; only when {@link #comparesAsValueLongs} holds. */
    static long longConstant(DataType valueType, Literal literal) {
        return Coercions.longs(ConstantEvaluator.build(literal, 1), 1, ExpressionTypes.scale(valueType))[0];
    }

    @Override
    public DataType type() {
        return DataType.BOOLEAN;
    }

    @Override
    public Vector evaluate(Batch batch) {
        int rows = batch.rowCount();
        Vector a = left.evaluate(batch);
        if (constantFastPath) {
            boolean[] result = new boolean[rows];
            if (a instanceof IntVector ints) {
                compareInts(ints.values(), rows, result);
            } else {
                compareLongs(((LongVector) a).values(), rows, result);
            }
            return new BooleanVector(result, Coercions.copyNulls(a, rows));
        }
        Vector b = right.evaluate(batch);
        boolean[] result = new boolean[rows];
        boolean[] nulls = Coercions.mergeNulls(a, b, rows);
        if (a instanceof IntVector x && b instanceof IntVector y) {
            compareIntColumns(x.values(), y.values(), rows, result);
            return new BooleanVector(result, nulls);
        }
        if (domain.kind() == TypeKind.VARCHAR) {
            String[] x = ((StringVector) a).values();
            String[] y = ((StringVector) b).values();
            if (operator == Comparison.Operator.EQUAL || operator == Comparison.Operator.NOT_EQUAL) {
                boolean equal = operator == Comparison.Operator.EQUAL;
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] != null && x[i].equals(y[i]) == equal;
                }
            } else {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] != null && y[i] != null && test(operator, x[i].compareTo(y[i]));
                }
            }
        } else if (domain.kind() == TypeKind.DOUBLE) {
            double[] x = Coercions.doubles(a, rows);
            double[] y = Coercions.doubles(b, rows);
            for (int i = 0; i < rows; i++) {
                result[i] = test(operator, Double.compare(x[i], y[i]));
            }
        } else {
            int scale = ExpressionTypes.scale(domain);
            long[] x = Coercions.longs(a, rows, scale);
            long[] y = Coercions.longs(b, rows, scale);
            for (int i = 0; i < rows; i++) {
                result[i] = test(operator, Long.compare(x[i], y[i]));
            }
        }
        return new BooleanVector(result, nulls);
    }

    private void compareInts(int[] x, int rows, boolean[] result) {
        long c = constant;
        switch (operator) {
            case EQUAL -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] == c;
                }
            }
            case NOT_EQUAL -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] != c;
                }
            }
            case LESS_THAN -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] < c;
                }
            }
            case LESS_THAN_OR_EQUAL -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] <= c;
                }
            }
            case GREATER_THAN -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] > c;
                }
            }
            case GREATER_THAN_OR_EQUAL -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] >= c;
                }
            }
        }
    }

    private void compareIntColumns(int[] x, int[] y, int rows, boolean[] result) {
        switch (operator) {
            case EQUAL -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] == y[i];
                }
            }
            case NOT_EQUAL -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] != y[i];
                }
            }
            case LESS_THAN -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] < y[i];
                }
            }
            case LESS_THAN_OR_EQUAL -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] <= y[i];
                }
            }
            case GREATER_THAN -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] > y[i];
                }
            }
            case GREATER_THAN_OR_EQUAL -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] >= y[i];
                }
            }
        }
    }

    private void compareLongs(long[] x, int rows, boolean[] result) {
        long c = constant;
        switch (operator) {
            case EQUAL -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] == c;
                }
            }
            case NOT_EQUAL -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] != c;
                }
            }
            case LESS_THAN -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] < c;
                }
            }
            case LESS_THAN_OR_EQUAL -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] <= c;
                }
            }
            case GREATER_THAN -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] > c;
                }
            }
            case GREATER_THAN_OR_EQUAL -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = x[i] >= c;
                }
            }
        }
    }

    static boolean test(Comparison.Operator operator, int comparison) {
        return switch (operator) {
            case EQUAL -> comparison == 0;
            case NOT_EQUAL -> comparison != 0;
            case LESS_THAN -> comparison < 0;
            case LESS_THAN_OR_EQUAL -> comparison <= 0;
            case GREATER_THAN -> comparison > 0;
            case GREATER_THAN_OR_EQUAL -> comparison >= 0;
        };
    }
}
