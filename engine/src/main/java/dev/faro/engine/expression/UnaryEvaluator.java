package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Vector;

/** One-operand functions: EXTRACT(YEAR), SUBSTRING and CAST. */
final class UnaryEvaluator implements Evaluator {

    /** Which function. */
    enum Function {
        YEAR,
        SUBSTRING,
        CAST
    }

    private final Function function;
    private final Evaluator operand;
    private final DataType type;
    private final int start;
    private final int length;

    UnaryEvaluator(Function function, Evaluator operand, DataType type, int start, int length) {
        this.function = function;
        this.operand = operand;
        this.type = type;
        this.start = start;
        this.length = length;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Vector evaluate(Batch batch) {
        int rows = batch.rowCount();
        Vector vector = operand.evaluate(batch);
        return switch (function) {
            case CAST -> Coercions.coerce(vector, type, rows);
            case YEAR -> {
                int[] days = ((IntVector) vector).values();
                int[] years = new int[rows];
                for (int i = 0; i < rows; i++) {
                    years[i] = year(days[i]);
                }
                yield new IntVector(DataType.INTEGER, years, Coercions.copyNulls(vector, rows));
            }
            case SUBSTRING -> {
                String[] values = ((StringVector) vector).values();
                String[] result = new String[rows];
                for (int i = 0; i < rows; i++) {
                    String value = values[i];
                    if (value != null) {
                        int from = Math.min(start - 1, value.length());
                        result[i] = value.substring(from, Math.min(value.length(), from + length));
                    }
                }
                yield new StringVector(type, result);
            }
        };
    }

    /** The proleptic Gregorian year of an epoch day (H. Hinnant's civil-from-days), allocation-free. */
    static int year(int epochDay) {
        long z = epochDay + 719_468L;
        long era = Math.floorDiv(z, 146_097L);
        long dayOfEra = z - era * 146_097L;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthIndex = (5 * dayOfYear + 2) / 153;
        long year = yearOfEra + era * 400;
        return (int) (monthIndex >= 10 ? year + 1 : year);
    }
}
