package dev.faro.engine.operator;

import dev.faro.engine.expression.Coercions;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.TypeKind;
import dev.faro.engine.vector.Vector;
import dev.faro.engine.vector.VectorBuilder;
import java.util.Arrays;
import java.util.List;

/** MIN or MAX of any type: strings compared as strings, doubles as doubles, everything else as normalized longs. */
final class MinMaxAccumulator extends Accumulator {

    private final DataType type;
    private final boolean min;
    private final TypeKind kind;
    private long[] longs = new long[0];
    private double[] doubles = new double[0];
    private String[] strings = new String[0];
    private boolean[] seen = new boolean[0];

    MinMaxAccumulator(DataType type, boolean min) {
        this.type = type;
        this.min = min;
        this.kind = type.kind();
    }

    @Override
    void ensureGroups(int groups) {
        if (seen.length < groups) {
            int capacity = grow(seen.length, groups);
            seen = Arrays.copyOf(seen, capacity);
            switch (kind) {
                case VARCHAR -> strings = Arrays.copyOf(strings, capacity);
                case DOUBLE -> doubles = Arrays.copyOf(doubles, capacity);
                default -> longs = Arrays.copyOf(longs, capacity);
            }
        }
    }

    @Override
    void addRaw(int[] groupIds, Vector argument, int rows) {
        boolean nullable = argument.mayHaveNulls();
        switch (kind) {
            case VARCHAR -> {
                String[] values = ((StringVector) argument).values();
                for (int i = 0; i < rows; i++) {
                    if (values[i] != null) {
                        offerString(groupIds[i], values[i]);
                    }
                }
            }
            case DOUBLE -> {
                double[] values = Coercions.doubles(argument, rows);
                for (int i = 0; i < rows; i++) {
                    if (!nullable || !argument.isNull(i)) {
                        offerDouble(groupIds[i], values[i]);
                    }
                }
            }
            default -> {
                long[] values = Coercions.longs(argument, rows, type.scale());
                for (int i = 0; i < rows; i++) {
                    if (!nullable || !argument.isNull(i)) {
                        offerLong(groupIds[i], values[i]);
                    }
                }
            }
        }
    }

    private void offerLong(int group, long value) {
        if (!seen[group] || (min ? value < longs[group] : value > longs[group])) {
            longs[group] = value;
            seen[group] = true;
        }
    }

    private void offerDouble(int group, double value) {
        if (!seen[group] || (min ? value < doubles[group] : value > doubles[group])) {
            doubles[group] = value;
            seen[group] = true;
        }
    }

    private void offerString(int group, String value) {
        if (!seen[group] || (min ? value.compareTo(strings[group]) < 0 : value.compareTo(strings[group]) > 0)) {
            strings[group] = value;
            seen[group] = true;
        }
    }

    @Override
    void addState(int[] groupIds, Batch batch, int column, int rows) {
        addRaw(groupIds, batch.column(column), rows);
    }

    @Override
    void merge(int group, Accumulator other, int otherGroup) {
        MinMaxAccumulator that = (MinMaxAccumulator) other;
        if (!that.seen[otherGroup]) {
            return;
        }
        switch (kind) {
            case VARCHAR -> offerString(group, that.strings[otherGroup]);
            case DOUBLE -> offerDouble(group, that.doubles[otherGroup]);
            default -> offerLong(group, that.longs[otherGroup]);
        }
    }

    @Override
    Vector result(int from, int count) {
        VectorBuilder builder = VectorBuilder.create(type, count);
        for (int i = 0; i < count; i++) {
            int group = from + i;
            if (!seen[group]) {
                builder.setNull(i);
                continue;
            }
            switch (kind) {
                case VARCHAR -> builder.setString(i, strings[group]);
                case DOUBLE -> builder.setDouble(i, doubles[group]);
                case BIGINT, DECIMAL -> builder.setLong(i, longs[group]);
                case INTEGER, DATE -> builder.setInt(i, (int) longs[group]);
                case BOOLEAN -> builder.setBoolean(i, longs[group] != 0);
            }
        }
        return builder.build();
    }

    @Override
    List<Vector> state(int from, int count) {
        return List.of(result(from, count));
    }
}
