package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.TypeKind;
import dev.faro.engine.vector.Vector;

/** {@code left op right} in the common domain of both sides (strings, doubles, or longs at a common scale). */
final class ComparisonEvaluator implements Evaluator {

    private final Comparison.Operator operator;
    private final Evaluator left;
    private final Evaluator right;
    private final DataType domain;

    ComparisonEvaluator(Comparison.Operator operator, Evaluator left, Evaluator right) {
        this.operator = operator;
        this.left = left;
        this.right = right;
        this.domain = ExpressionTypes.comparisonDomain(left.type(), right.type());
    }

    @Override
    public DataType type() {
        return DataType.BOOLEAN;
    }

    @Override
    public Vector evaluate(Batch batch) {
        int rows = batch.rowCount();
        Vector a = left.evaluate(batch);
        Vector b = right.evaluate(batch);
        boolean[] result = new boolean[rows];
        boolean[] nulls = Coercions.mergeNulls(a, b, rows);
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
