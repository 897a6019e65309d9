package dev.faro.engine.operator;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Vector;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * COUNT(DISTINCT x) in the SINGLE phase: a set of boxed values per group (this accumulator allocates per new value;
 * plans with large distinct counts should group by the value first).
 */
final class CountDistinctAccumulator extends Accumulator {

    private Set<?>[] sets = new Set<?>[0];

    @Override
    void ensureGroups(int groups) {
        if (sets.length < groups) {
            sets = Arrays.copyOf(sets, grow(sets.length, groups));
        }
    }

    @SuppressWarnings("unchecked")
    private Set<Object> set(int group) {
        Set<Object> set = (Set<Object>) sets[group];
        if (set == null) {
            set = new HashSet<>();
            sets[group] = set;
        }
        return set;
    }

    @Override
    void addRaw(int[] groupIds, Vector argument, int rows) {
        for (int i = 0; i < rows; i++) {
            Object value = argument.getObject(i);
            if (value != null) {
                set(groupIds[i]).add(value);
            }
        }
    }

    @Override
    void addState(int[] groupIds, Batch batch, int column, int rows) {
        throw new IllegalStateException("COUNT_DISTINCT has no FINAL phase");
    }

    @Override
    void merge(int group, Accumulator other, int otherGroup) {
        Set<?> that = ((CountDistinctAccumulator) other).sets[otherGroup];
        if (that != null) {
            set(group).addAll(that);
        }
    }

    @Override
    Vector result(int from, int count) {
        long[] counts = new long[count];
        for (int i = 0; i < count; i++) {
            Set<?> set = sets[from + i];
            counts[i] = set == null ? 0 : set.size();
        }
        return new LongVector(DataType.BIGINT, counts);
    }

    @Override
    List<Vector> state(int from, int count) {
        throw new IllegalStateException("COUNT_DISTINCT has no PARTIAL phase");
    }
}
