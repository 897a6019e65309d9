package dev.faro.engine.plan;

import dev.faro.engine.expression.ExpressionTypes;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.TypeKind;
import java.util.ArrayList;
import java.util.List;

/** The types of aggregates and their state columns; shared by {@link Aggregate} and the aggregation operator. */
public final class AggregateSchemas {

    private AggregateSchemas() {}

    /** The output schema of an aggregation in {@code phase} over {@code input}. */
    public static Schema output(
            AggregationPhase phase, Schema input, List<String> groupKeys, List<AggregateCall> aggregates) {
        List<Column> columns = new ArrayList<>();
        for (String key : groupKeys) {
            columns.add(input.column(key));
        }
        for (AggregateCall call : aggregates) {
            DataType argument = argumentType(phase, input, call);
            if (phase == AggregationPhase.PARTIAL) {
                columns.addAll(stateColumns(call, argument));
            } else {
                columns.add(new Column(call.name(), resultType(call.function(), argument)));
            }
        }
        return new Schema(columns);
    }

    /**
     * The type of the aggregate's raw argument: from the expression over the input (SINGLE, PARTIAL), or recovered
     * from the state columns (FINAL; AVG's argument type is then reported as DOUBLE).
     */
    public static DataType argumentType(AggregationPhase phase, Schema input, AggregateCall call) {
        if (call.function() == AggregateFunction.COUNT_STAR) {
            return DataType.BIGINT;
        }
        if (phase != AggregationPhase.FINAL) {
            DataType type = ExpressionTypes.typeOf(call.argument(), input);
            if ((call.function() == AggregateFunction.SUM || call.function() == AggregateFunction.AVG)
                    && !type.isNumeric()) {
                throw new IllegalArgumentException(
                        call.function() + " needs a number: aggregate=" + call.name() + " type=" + type);
            }
            return type;
        }
        return switch (call.function()) {
            case AVG -> {
                input.column(call.name() + "$count");
                yield input.column(call.name() + "$sum").type();
            }
            case COUNT, COUNT_STAR, COUNT_DISTINCT -> {
                input.column(call.name());
                yield DataType.BIGINT;
            }
            case SUM, MIN, MAX -> input.column(call.name()).type();
        };
    }

    /** The state columns a PARTIAL aggregation emits for {@code call}. */
    public static List<Column> stateColumns(AggregateCall call, DataType argument) {
        return switch (call.function()) {
            case AVG ->
                List.of(
                        new Column(call.name() + "$sum", DataType.DOUBLE),
                        new Column(call.name() + "$count", DataType.BIGINT));
            default -> List.of(new Column(call.name(), resultType(call.function(), argument)));
        };
    }

    /** The result type of {@code function} over an argument of {@code argument}. */
    public static DataType resultType(AggregateFunction function, DataType argument) {
        return switch (function) {
            case COUNT, COUNT_STAR, COUNT_DISTINCT -> DataType.BIGINT;
            case AVG -> DataType.DOUBLE;
            case MIN, MAX -> argument;
            case SUM ->
                switch (argument.kind()) {
                    case INTEGER, BIGINT -> DataType.BIGINT;
                    case DECIMAL, DOUBLE -> argument;
                    default -> throw new IllegalArgumentException("SUM needs a number: type=" + argument);
                };
        };
    }

    static boolean isExactSum(DataType type) {
        return type.kind() != TypeKind.DOUBLE;
    }
}
