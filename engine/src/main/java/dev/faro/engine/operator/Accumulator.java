package dev.faro.engine.operator;

import dev.faro.engine.plan.AggregateFunction;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.TypeKind;
import dev.faro.engine.vector.Vector;
import java.util.List;

/**
 * The per-group state of one aggregate, in arrays indexed by group id. Updated from raw argument values (SINGLE,
 * PARTIAL), from state columns (FINAL), or by merging another thread's accumulator. Thread-confined.
 *
 * <p>Data path: the update loops allocate nothing (COUNT_DISTINCT of a string or double boxes its values).
 */
abstract class Accumulator {

    /** Makes room for group ids below {@code groups}. */
    abstract void ensureGroups(int groups);

    /** Adds raw argument values (null vector for COUNT_STAR) of rows {@code [0, rows)} to their groups. */
    abstract void addRaw(int[] groupIds, Vector argument, int rows);

    /** Adds the state columns starting at {@code column} of {@code batch} (a PARTIAL's output) to their groups. */
    abstract void addState(int[] groupIds, Batch batch, int column, int rows);

    /** Merges group {@code otherGroup} of {@code other} (same aggregate) into {@code group}. */
    abstract void merge(int group, Accumulator other, int otherGroup);

    /** The final values of groups {@code [from, from+count)}. */
    abstract Vector result(int from, int count);

    /** The state columns of groups {@code [from, from+count)}. */
    abstract List<Vector> state(int from, int count);

    /** A new accumulator of {@code function} over arguments of type {@code argument}. */
    static Accumulator create(AggregateFunction function, DataType argument) {
        return switch (function) {
            case COUNT, COUNT_STAR -> new CountAccumulator(function == AggregateFunction.COUNT_STAR);
            case SUM ->
                argument.kind() == TypeKind.DOUBLE
                        ? new DoubleSumAccumulator(false)
                        : new LongSumAccumulator(argument.kind() == TypeKind.DECIMAL ? argument : DataType.BIGINT);
            case AVG -> new DoubleSumAccumulator(true);
            case MIN -> new MinMaxAccumulator(argument, true);
            case MAX -> new MinMaxAccumulator(argument, false);
            case COUNT_DISTINCT ->
                switch (argument.kind()) {
                    case BIGINT, DECIMAL, INTEGER, DATE -> new LongCountDistinctAccumulator();
                    default -> new CountDistinctAccumulator();
                };
        };
    }

    static int grow(int length, int groups) {
        return Math.max(groups, Math.max(1024, length * 2));
    }
}
