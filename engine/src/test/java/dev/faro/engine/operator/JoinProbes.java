package dev.faro.engine.operator;

import dev.faro.engine.plan.HashJoin;
import dev.faro.engine.plan.JoinType;
import dev.faro.engine.plan.Plans;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Schema;
import java.util.ArrayList;
import java.util.List;

/** Test support: builds a join table from batches and probes it, returning every output row. */
final class JoinProbes {

    private JoinProbes() {}

    /**
     * The rows a {@code type} join of {@code probes} (schema {@code probeSchema}) against {@code build} emits, the
     * table getting a join filter from {@code filterMinRows} build rows on.
     */
    static List<List<Object>> run(
            JoinType type,
            Schema probeSchema,
            Schema buildSchema,
            List<Batch> build,
            List<Batch> probes,
            List<String> probeKeys,
            List<String> buildKeys,
            int filterMinRows) {
        return run(type, probeSchema, buildSchema, build, probes, probeKeys, buildKeys, filterMinRows, true);
    }

    /** {@link #run}, the table with a {@link KeyBitmap} only when {@code bitmaps}. */
    static List<List<Object>> run(
            JoinType type,
            Schema probeSchema,
            Schema buildSchema,
            List<Batch> build,
            List<Batch> probes,
            List<String> probeKeys,
            List<String> buildKeys,
            int filterMinRows,
            boolean bitmaps) {
        JoinBuildOperator.Factory builds =
                new JoinBuildOperator.Factory(buildSchema, buildKeys, filterMinRows, bitmaps);
        Operator builder = builds.create(0);
        for (Batch batch : build) {
            builder.addInput(batch);
        }
        builder.finish();
        builds.complete(2);
        HashJoin join = new HashJoin(
                type,
                Plans.scan("probe", probeSchema, probeSchema.names().toArray(String[]::new)),
                Plans.scan("build", buildSchema, buildSchema.names().toArray(String[]::new)),
                probeKeys,
                buildKeys,
                null,
                List.of());
        Operator probe = new HashJoinProbeOperator.Factory(join, probeSchema, builds).create(0);
        List<List<Object>> rows = new ArrayList<>();
        for (Batch batch : probes) {
            probe.addInput(batch);
            Batch output = probe.getOutput();
            if (output != null) {
                rows.addAll(output.rows());
            }
        }
        return rows;
    }
}
