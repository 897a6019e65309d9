package dev.faro.engine.operator;

import dev.faro.engine.expression.Coercions;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Vector;
import java.util.Arrays;
import java.util.List;

/** SUM of exact values (INTEGER, BIGINT, DECIMAL) in long arithmetic; overflow fails. NULL over no values. */
final class LongSumAccumulator extends Accumulator {

    private final DataType type;
    private long[] sums = new long[0];
    private boolean[] seen = new boolean[0];

    LongSumAccumulator(DataType type) {
        this.type = type;
    }

    @Override
    void ensureGroups(int groups) {
        if (sums.length < groups) {
            int capacity = grow(sums.length, groups);
            sums = Arrays.copyOf(sums, capacity);
            seen = Arrays.copyOf(seen, capacity);
        }
    }

    @Override
    void addRaw(int[] groupIds, Vector argument, int rows) {
        long[] values = Coercions.longs(argument, rows, type.scale());
        if (!argument.mayHaveNulls()) {
            for (int i = 0; i < rows; i++) {
                int group = groupIds[i];
                sums[group] = Math.addExact(sums[group], values[i]);
                seen[group] = true;
            }
        } else {
            for (int i = 0; i < rows; i++) {
                if (!argument.isNull(i)) {
                    int group = groupIds[i];
                    sums[group] = Math.addExact(sums[group], values[i]);
                    seen[group] = true;
                }
            }
        }
    }

    @Override
    void addState(int[] groupIds, Batch batch, int column, int rows) {
        addRaw(groupIds, batch.column(column), rows);
    }

    @Override
    void merge(int group, Accumulator other, int otherGroup) {
        LongSumAccumulator that = (LongSumAccumulator) other;
        if (that.seen[otherGroup]) {
            sums[group] = Math.addExact(sums[group], that.sums[otherGroup]);
            seen[group] = true;
        }
    }

    @Override
    Vector result(int from, int count) {
        boolean[] nulls = null;
        for (int i = 0; i < count; i++) {
            if (!seen[from + i]) {
                if (nulls == null) {
                    nulls = new boolean[count];
                }
                nulls[i] = true;
            }
        }
        return new LongVector(type, Arrays.copyOfRange(sums, from, from + count), nulls);
    }

    @Override
    List<Vector> state(int from, int count) {
        return List.of(result(from, count));
    }
}
