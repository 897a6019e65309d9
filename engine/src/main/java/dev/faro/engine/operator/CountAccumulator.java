package dev.faro.engine.operator;

import dev.faro.engine.expression.Coercions;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Vector;
import java.util.Arrays;
import java.util.List;

/** COUNT(x) (non-NULL values) and COUNT(*). */
final class CountAccumulator extends Accumulator {

    private final boolean star;
    private long[] counts = new long[0];

    CountAccumulator(boolean star) {
        this.star = star;
    }

    @Override
    void ensureGroups(int groups) {
        if (counts.length < groups) {
            counts = Arrays.copyOf(counts, grow(counts.length, groups));
        }
    }

    @Override
    void addRaw(int[] groupIds, Vector argument, int rows) {
        if (star || !argument.mayHaveNulls()) {
            for (int i = 0; i < rows; i++) {
                counts[groupIds[i]]++;
            }
        } else {
            for (int i = 0; i < rows; i++) {
                if (!argument.isNull(i)) {
                    counts[groupIds[i]]++;
                }
            }
        }
    }

    @Override
    void addState(int[] groupIds, Batch batch, int column, int rows) {
        long[] values = Coercions.longs(batch.column(column), rows, 0);
        for (int i = 0; i < rows; i++) {
            counts[groupIds[i]] += values[i];
        }
    }

    @Override
    void merge(int group, Accumulator other, int otherGroup) {
        counts[group] += ((CountAccumulator) other).counts[otherGroup];
    }

    @Override
    Vector result(int from, int count) {
        return new LongVector(DataType.BIGINT, Arrays.copyOfRange(counts, from, from + count));
    }

    @Override
    List<Vector> state(int from, int count) {
        return List.of(result(from, count));
    }
}
