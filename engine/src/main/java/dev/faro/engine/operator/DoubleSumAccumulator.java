package dev.faro.engine.operator;

import dev.faro.engine.expression.Coercions;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.DoubleVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Vector;
import java.util.Arrays;
import java.util.List;

/**
 * SUM of doubles, or AVG (a double sum and a count; state columns {@code $sum}, {@code $count}). NULL over no
 * values.
 */
final class DoubleSumAccumulator extends Accumulator {

    private final boolean average;
    private double[] sums = new double[0];
    private long[] counts = new long[0];

    DoubleSumAccumulator(boolean average) {
        this.average = average;
    }

    @Override
    void ensureGroups(int groups) {
        if (sums.length < groups) {
            int capacity = grow(sums.length, groups);
            sums = Arrays.copyOf(sums, capacity);
            counts = Arrays.copyOf(counts, capacity);
        }
    }

    @Override
    void addRaw(int[] groupIds, Vector argument, int rows) {
        double[] values = Coercions.doubles(argument, rows);
        boolean nullable = argument.mayHaveNulls();
        for (int i = 0; i < rows; i++) {
            if (!nullable || !argument.isNull(i)) {
                int group = groupIds[i];
                sums[group] += values[i];
                counts[group]++;
            }
        }
    }

    @Override
    void addState(int[] groupIds, Batch batch, int column, int rows) {
        Vector sumVector = batch.column(column);
        double[] partialSums = Coercions.doubles(sumVector, rows);
        if (!average) {
            for (int i = 0; i < rows; i++) {
                if (!sumVector.isNull(i)) {
                    sums[groupIds[i]] += partialSums[i];
                    counts[groupIds[i]]++;
                }
            }
            return;
        }
        long[] partialCounts = Coercions.longs(batch.column(column + 1), rows, 0);
        for (int i = 0; i < rows; i++) {
            int group = groupIds[i];
            sums[group] += partialSums[i];
            counts[group] += partialCounts[i];
        }
    }

    @Override
    void merge(int group, Accumulator other, int otherGroup) {
        DoubleSumAccumulator that = (DoubleSumAccumulator) other;
        sums[group] += that.sums[otherGroup];
        counts[group] += that.counts[otherGroup];
    }

    @Override
    Vector result(int from, int count) {
        double[] values = new double[count];
        boolean[] nulls = null;
        for (int i = 0; i < count; i++) {
            long n = counts[from + i];
            if (n == 0) {
                if (nulls == null) {
                    nulls = new boolean[count];
                }
                nulls[i] = true;
            } else {
                values[i] = average ? sums[from + i] / n : sums[from + i];
            }
        }
        return new DoubleVector(DataType.DOUBLE, values, nulls);
    }

    @Override
    List<Vector> state(int from, int count) {
        if (!average) {
            return List.of(result(from, count));
        }
        return List.of(
                new DoubleVector(DataType.DOUBLE, Arrays.copyOfRange(sums, from, from + count)),
                new LongVector(DataType.BIGINT, Arrays.copyOfRange(counts, from, from + count)));
    }
}
