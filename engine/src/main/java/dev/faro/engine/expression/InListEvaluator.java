package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.TypeKind;
import dev.faro.engine.vector.Vector;
import java.util.List;

/** {@code value IN (constants)}: strings, doubles or longs at a common scale, checked by a linear scan. */
final class InListEvaluator implements Evaluator {

    private final Evaluator value;
    private final DataType domain;
    private final String[] strings;
    private final double[] doubles;
    private final long[] longs;

    InListEvaluator(Evaluator value, List<Literal> list) {
        this.value = value;
        DataType domain = value.type();
        for (Literal literal : list) {
            domain = ExpressionTypes.comparisonDomain(domain, literal.type());
        }
        this.domain = domain;
        int n = list.size();
        strings = new String[n];
        doubles = new double[n];
        longs = new long[n];
        for (int i = 0; i < n; i++) {
            Vector constant = Coercions.coerce(
                    ConstantEvaluator.build(list.get(i), 1),
                    domain.kind() == TypeKind.VARCHAR ? list.get(i).type() : domain,
                    1);
            switch (domain.kind()) {
                case VARCHAR -> strings[i] = ((StringVector) constant).get(0);
                case DOUBLE -> doubles[i] = Coercions.doubles(constant, 1)[0];
                default -> longs[i] = Coercions.longs(constant, 1, ExpressionTypes.scale(domain))[0];
            }
        }
    }

    @Override
    public DataType type() {
        return DataType.BOOLEAN;
    }

    @Override
    public Vector evaluate(Batch batch) {
        int rows = batch.rowCount();
        Vector vector = value.evaluate(batch);
        boolean[] result = new boolean[rows];
        switch (domain.kind()) {
            case VARCHAR -> {
                String[] values = ((StringVector) vector).values();
                for (int i = 0; i < rows; i++) {
                    String v = values[i];
                    if (v != null) {
                        for (String candidate : strings) {
                            if (v.equals(candidate)) {
                                result[i] = true;
                                break;
                            }
                        }
                    }
                }
            }
            case DOUBLE -> {
                double[] values = Coercions.doubles(vector, rows);
                for (int i = 0; i < rows; i++) {
                    for (double candidate : doubles) {
                        if (values[i] == candidate) {
                            result[i] = true;
                            break;
                        }
                    }
                }
            }
            default -> {
                long[] values = Coercions.longs(vector, rows, ExpressionTypes.scale(domain));
                for (int i = 0; i < rows; i++) {
                    for (long candidate : longs) {
                        if (values[i] == candidate) {
                            result[i] = true;
                            break;
                        }
                    }
                }
            }
        }
        return new BooleanVector(result, Coercions.copyNulls(vector, rows));
    }
}
