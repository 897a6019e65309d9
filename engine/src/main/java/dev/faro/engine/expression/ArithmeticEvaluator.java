package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.DoubleVector;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.TypeKind;
import dev.faro.engine.vector.Vector;

/** {@code left op right} over a batch; exact types in long arithmetic (overflow fails), else double. */
final class ArithmeticEvaluator implements Evaluator {

    private final Arithmetic.Operator operator;
    private final Evaluator left;
    private final Evaluator right;
    private final DataType type;

    ArithmeticEvaluator(Arithmetic.Operator operator, Evaluator left, Evaluator right) {
        this.operator = operator;
        this.left = left;
        this.right = right;
        this.type = ExpressionTypes.arithmetic(operator, left.type(), right.type());
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Vector evaluate(Batch batch) {
        int rows = batch.rowCount();
        Vector a = left.evaluate(batch);
        Vector b = right.evaluate(batch);
        boolean[] nulls = Coercions.mergeNulls(a, b, rows);
        if (type.kind() == TypeKind.DATE) {
            int[] dates = ((IntVector) a).values();
            long[] days = Coercions.longs(b, rows, 0);
            int[] result = new int[rows];
            int sign = operator == Arithmetic.Operator.ADD ? 1 : -1;
            for (int i = 0; i < rows; i++) {
                result[i] = Math.toIntExact(dates[i] + sign * days[i]);
            }
            return new IntVector(type, result, nulls);
        }
        if (type.kind() == TypeKind.DOUBLE) {
            double[] x = Coercions.doubles(a, rows);
            double[] y = Coercions.doubles(b, rows);
            double[] result = new double[rows];
            switch (operator) {
                case ADD -> {
                    for (int i = 0; i < rows; i++) {
                        result[i] = x[i] + y[i];
                    }
                }
                case SUBTRACT -> {
                    for (int i = 0; i < rows; i++) {
                        result[i] = x[i] - y[i];
                    }
                }
                case MULTIPLY -> {
                    for (int i = 0; i < rows; i++) {
                        result[i] = x[i] * y[i];
                    }
                }
                case DIVIDE -> {
                    for (int i = 0; i < rows; i++) {
                        if (y[i] == 0) {
                            if (nulls == null) {
                                nulls = new boolean[rows];
                            }
                            nulls[i] = true;
                        } else {
                            result[i] = x[i] / y[i];
                        }
                    }
                }
            }
            return new DoubleVector(type, result, nulls);
        }
        long[] result = new long[rows];
        if (operator == Arithmetic.Operator.MULTIPLY) {
            long[] x = Coercions.longs(a, rows, ExpressionTypes.scale(a.type()));
            long[] y = Coercions.longs(b, rows, ExpressionTypes.scale(b.type()));
            for (int i = 0; i < rows; i++) {
                result[i] = Math.multiplyExact(x[i], y[i]);
            }
        } else {
            int scale = ExpressionTypes.scale(type);
            long[] x = Coercions.longs(a, rows, scale);
            long[] y = Coercions.longs(b, rows, scale);
            if (operator == Arithmetic.Operator.ADD) {
                for (int i = 0; i < rows; i++) {
                    result[i] = Math.addExact(x[i], y[i]);
                }
            } else {
                for (int i = 0; i < rows; i++) {
                    result[i] = Math.subtractExact(x[i], y[i]);
                }
            }
        }
        return new LongVector(type, result, nulls);
    }
}
