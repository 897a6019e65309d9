package dev.faro.engine.expression;

import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.DoubleVector;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.TypeKind;
import dev.faro.engine.vector.Vector;

/**
 * Vector conversions between types, and reading any exact vector as longs at a scale. Data path: allocates only the
 * result arrays (one per batch), nothing per row.
 */
public final class Coercions {

    private static final long[] POWERS_OF_TEN = new long[DataType.MAX_SCALE + 1];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private Coercions() {}

    public static long powerOfTen(int exponent) {
        return POWERS_OF_TEN[exponent];
    }

    /** {@code vector} converted to {@code target} over its first {@code rows} rows (itself when already so). */
    public static Vector coerce(Vector vector, DataType target, int rows) {
        DataType source = vector.type();
        if (source.equals(target)) {
            return vector;
        }
        return switch (target.kind()) {
            case VARCHAR -> {
                if (!(vector instanceof StringVector strings)) {
                    throw new IllegalArgumentException("cannot convert " + source + " to " + target);
                }
                yield new StringVector(target, strings.values());
            }
            case DOUBLE -> new DoubleVector(DataType.DOUBLE, doubles(vector, rows), copyNulls(vector, rows));
            case BIGINT, DECIMAL -> {
                if (source.kind() == TypeKind.DOUBLE) {
                    double[] values = ((DoubleVector) vector).values();
                    long[] result = new long[rows];
                    double factor = powerOfTen(ExpressionTypes.scale(target));
                    for (int i = 0; i < rows; i++) {
                        result[i] = Math.round(values[i] * factor);
                    }
                    yield new LongVector(target, result, copyNulls(vector, rows));
                }
                long[] values = longs(vector, rows, ExpressionTypes.scale(target));
                yield new LongVector(target, values, copyNulls(vector, rows));
            }
            case INTEGER -> {
                long[] values = longs(vector, rows, 0);
                int[] result = new int[rows];
                for (int i = 0; i < rows; i++) {
                    result[i] = Math.toIntExact(values[i]);
                }
                yield new IntVector(target, result, copyNulls(vector, rows));
            }
            case DATE, BOOLEAN -> throw new IllegalArgumentException("cannot convert " + source + " to " + target);
        };
    }

    /**
     * The values of an exact vector (INTEGER, BIGINT, DECIMAL, DATE, BOOLEAN as 0/1) as longs at {@code scale}: the
     * vector's own array when it is a long vector at that scale (read only!), else a new array.
     */
    public static long[] longs(Vector vector, int rows, int scale) {
        int from = ExpressionTypes.scale(vector.type());
        if (scale < from) {
            long divisor = powerOfTen(from - scale);
            long[] values = ((LongVector) vector).values();
            long[] result = new long[rows];
            for (int i = 0; i < rows; i++) {
                result[i] = values[i] / divisor;
            }
            return result;
        }
        long factor = powerOfTen(scale - from);
        switch (vector) {
            case LongVector v -> {
                if (factor == 1) {
                    return v.values();
                }
                long[] values = v.values();
                long[] result = new long[rows];
                for (int i = 0; i < rows; i++) {
                    result[i] = Math.multiplyExact(values[i], factor);
                }
                return result;
            }
            case IntVector v -> {
                int[] values = v.values();
                long[] result = new long[rows];
                for (int i = 0; i < rows; i++) {
                    result[i] = values[i] * factor;
                }
                return result;
            }
            case BooleanVector v -> {
                boolean[] values = v.values();
                long[] result = new long[rows];
                for (int i = 0; i < rows; i++) {
                    result[i] = values[i] ? 1 : 0;
                }
                return result;
            }
            default -> throw new IllegalArgumentException("not an exact vector: type=" + vector.type());
        }
    }

    /** The values of a numeric vector as doubles (DECIMAL divided by 10^scale); the own array of a DOUBLE vector. */
    public static double[] doubles(Vector vector, int rows) {
        switch (vector) {
            case DoubleVector v -> {
                return v.values();
            }
            case LongVector v -> {
                long[] values = v.values();
                double[] result = new double[rows];
                double divisor = powerOfTen(ExpressionTypes.scale(v.type()));
                for (int i = 0; i < rows; i++) {
                    result[i] = values[i] / divisor;
                }
                return result;
            }
            case IntVector v -> {
                int[] values = v.values();
                double[] result = new double[rows];
                for (int i = 0; i < rows; i++) {
                    result[i] = values[i];
                }
                return result;
            }
            default -> throw new IllegalArgumentException("not a numeric vector: type=" + vector.type());
        }
    }

    /** A copy of the first {@code rows} null flags, or null when the vector has none. */
    static boolean[] copyNulls(Vector vector, int rows) {
        if (!vector.mayHaveNulls()) {
            return null;
        }
        boolean[] nulls = new boolean[rows];
        boolean any = false;
        for (int i = 0; i < rows; i++) {
            nulls[i] = vector.isNull(i);
            any |= nulls[i];
        }
        return any ? nulls : null;
    }

    /** The union of two vectors' null flags over {@code rows}, or null when neither has a NULL. */
    static boolean[] mergeNulls(Vector left, Vector right, int rows) {
        if (!left.mayHaveNulls() && !right.mayHaveNulls()) {
            return null;
        }
        boolean[] nulls = new boolean[rows];
        boolean any = false;
        for (int i = 0; i < rows; i++) {
            nulls[i] = left.isNull(i) || right.isNull(i);
            any |= nulls[i];
        }
        return any ? nulls : null;
    }
}
