package dev.faro.engine.plan;

import dev.faro.engine.expression.Expression;
import dev.faro.engine.expression.ExpressionTypes;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Hash equi-join: {@code build} is materialized into a hash table shared by the node's threads, {@code probe} streams
 * through it. Keys pair up by position and must have comparable types (exact numbers and dates at the same scale,
 * strings, ...). {@code residual} (nullable) filters candidate pairs over the probe and build columns together (names
 * must be unique across both sides). No keys at all make a cross join (every build row is a candidate: meant for a
 * small build side such as a scalar subquery's single row). {@code outputColumns} picks the output (empty: all probe
 * then all build columns; SEMI and ANTI output probe columns only).
 */
public record HashJoin(
        JoinType type,
        PlanNode probe,
        PlanNode build,
        List<String> probeKeys,
        List<String> buildKeys,
        Expression residual,
        List<String> outputColumns)
        implements PlanNode {

    public HashJoin {
        Objects.requireNonNull(type, "type is null");
        Objects.requireNonNull(probe, "probe is null");
        Objects.requireNonNull(build, "build is null");
        probeKeys = List.copyOf(Objects.requireNonNull(probeKeys, "probeKeys is null"));
        buildKeys = List.copyOf(Objects.requireNonNull(buildKeys, "buildKeys is null"));
        outputColumns = List.copyOf(Objects.requireNonNull(outputColumns, "outputColumns is null"));
        if (probeKeys.size() != buildKeys.size()) {
            throw new IllegalArgumentException(
                    "join keys must pair up: probeKeys=" + probeKeys + " buildKeys=" + buildKeys);
        }
        Schema probeSchema = probe.outputSchema();
        Schema buildSchema = build.outputSchema();
        for (int i = 0; i < probeKeys.size(); i++) {
            Column p = probeSchema.column(probeKeys.get(i));
            Column b = buildSchema.column(buildKeys.get(i));
            checkKeyTypes(p, b);
        }
        Schema combined = combined(probeSchema, buildSchema);
        if (residual != null && ExpressionTypes.typeOf(residual, combined).kind() != TypeKind.BOOLEAN) {
            throw new IllegalArgumentException("join residual is not BOOLEAN: residual=" + residual);
        }
        Schema visible = type == JoinType.SEMI || type == JoinType.ANTI ? probeSchema : combined;
        for (String column : outputColumns) {
            visible.indexOf(column);
        }
    }

    private static void checkKeyTypes(Column probe, Column build) {
        TypeKind p = probe.type().kind();
        TypeKind b = build.type().kind();
        boolean strings = p == TypeKind.VARCHAR && b == TypeKind.VARCHAR;
        boolean exact = p != TypeKind.VARCHAR
                && b != TypeKind.VARCHAR
                && p != TypeKind.DOUBLE
                && b != TypeKind.DOUBLE
                && probe.type().scale() == build.type().scale();
        boolean doubles = p == TypeKind.DOUBLE && b == TypeKind.DOUBLE;
        if (!strings && !exact && !doubles) {
            throw new IllegalArgumentException("join key types do not match: " + probe + " and " + build);
        }
    }

    /** The probe columns followed by the build columns (names must be unique). */
    public static Schema combined(Schema probe, Schema build) {
        List<Column> columns = new ArrayList<>(probe.columns());
        columns.addAll(build.columns());
        return new Schema(columns);
    }

    @Override
    public Schema outputSchema() {
        Schema probeSchema = probe.outputSchema();
        Schema visible = type == JoinType.SEMI || type == JoinType.ANTI
                ? probeSchema
                : combined(probeSchema, build.outputSchema());
        if (outputColumns.isEmpty()) {
            return visible;
        }
        List<Column> columns = new ArrayList<>();
        for (String name : outputColumns) {
            columns.add(visible.column(name));
        }
        return new Schema(columns);
    }

    @Override
    public List<PlanNode> children() {
        return List.of(probe, build);
    }
}
