package dev.faro.engine.expression;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.BooleanVector;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Vector;

/**
 * {@code value LIKE pattern} with {@code %} and {@code _}, through a {@link LikePattern}; {@link #matches} is the
 * general matcher: a greedy wildcard match that backtracks to the last {@code %} (never allocates).
 */
final class LikeEvaluator implements Evaluator {

    private final Evaluator value;
    private final LikePattern pattern;

    LikeEvaluator(Evaluator value, String pattern) {
        this.value = value;
        this.pattern = new LikePattern(pattern);
    }

    @Override
    public DataType type() {
        return DataType.BOOLEAN;
    }

    @Override
    public Vector evaluate(Batch batch) {
        int rows = batch.rowCount();
        String[] values = ((StringVector) value.evaluate(batch)).values();
        boolean[] result = new boolean[rows];
        boolean[] nulls = null;
        for (int i = 0; i < rows; i++) {
            if (values[i] == null) {
                if (nulls == null) {
                    nulls = new boolean[rows];
                }
                nulls[i] = true;
            } else {
                result[i] = pattern.matches(values[i]);
            }
        }
        return new BooleanVector(result, nulls);
    }

    /** Whether {@code text} matches the LIKE {@code pattern}. */
    static boolean matches(String text, String pattern) {
        int t = 0;
        int p = 0;
        int starP = -1;
        int starT = 0;
        int textLength = text.length();
        int patternLength = pattern.length();
        while (t < textLength) {
            if (p < patternLength) {
                char c = pattern.charAt(p);
                if (c == '%') {
                    starP = p++;
                    starT = t;
                    continue;
                }
                if (c == '_' || c == text.charAt(t)) {
                    p++;
                    t++;
                    continue;
                }
            }
            if (starP < 0) {
                return false;
            }
            p = starP + 1;
            t = ++starT;
        }
        while (p < patternLength && pattern.charAt(p) == '%') {
            p++;
        }
        return p == patternLength;
    }
}
