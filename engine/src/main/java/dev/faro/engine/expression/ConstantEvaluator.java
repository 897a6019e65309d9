package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.DoubleVector;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Vector;
import java.util.Arrays;

/** A literal broadcast to the batch's rows; the vector is cached and regrown only when a batch is larger. */
final class ConstantEvaluator implements Evaluator {

    private final Literal literal;
    private Vector cached;

    ConstantEvaluator(Literal literal) {
        this.literal = literal;
    }

    Literal literal() {
        return literal;
    }

    @Override
    public DataType type() {
        return literal.type();
    }

    @Override
    public Vector evaluate(Batch batch) {
        int rows = Math.max(1, batch.rowCount());
        if (cached == null || cached.size() < rows) {
            cached = build(literal, Math.max(rows, 1024));
        }
        return cached;
    }

    static Vector build(Literal literal, int rows) {
        DataType type = literal.type();
        String text = literal.value();
        boolean[] nulls = null;
        if (text == null) {
            nulls = new boolean[rows];
            Arrays.fill(nulls, true);
        }
        return switch (type.kind()) {
            case BIGINT, DECIMAL -> {
                long[] values = new long[rows];
                if (text != null) {
                    Arrays.fill(values, LiteralValues.longValue(type, text));
                }
                yield new LongVector(type, values, nulls);
            }
            case INTEGER, DATE -> {
                int[] values = new int[rows];
                if (text != null) {
                    Arrays.fill(values, Math.toIntExact(LiteralValues.longValue(type, text)));
                }
                yield new IntVector(type, values, nulls);
            }
            case DOUBLE -> {
                double[] values = new double[rows];
                if (text != null) {
                    Arrays.fill(values, Double.parseDouble(text));
                }
                yield new DoubleVector(type, values, nulls);
            }
            case BOOLEAN -> {
                boolean[] values = new boolean[rows];
                if (text != null) {
                    Arrays.fill(values, LiteralValues.booleanValue(text));
                }
                yield new BooleanVector(values, nulls);
            }
            case VARCHAR -> {
                String[] values = new String[rows];
                Arrays.fill(values, text);
                yield new StringVector(type, values);
            }
        };
    }
}
