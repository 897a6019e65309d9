package dev.faro.cluster.tpch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.engine.exec.Catalog;
import dev.faro.engine.tpch.TpchGenerator;
import dev.faro.engine.vector.Table;
import java.util.List;

/**
 * Task {@value #TYPE}: generates this node's share of a TPC-H database ({@link TpchGenerator}) and keeps it as the
 * worker's catalog for the queries that follow. Payload: a {@link TpchLoadTask}. Reply: rows per table and the
 * generation time.
 */
public final class TpchLoadHandler implements TaskHandler {

    public static final String TYPE = "tpch.load";

    /** The worker attribute under which the loaded {@link Catalog} lives. */
    public static final String CATALOG = "engine.catalog";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) {
        TpchLoadTask task = TpchLoadTask.fromJson(payload);
        long start = System.nanoTime();
        context.attributes().remove(CATALOG); // let a previous database go before building the next
        List<Table> tables = new TpchGenerator(
                        task.scaleFactor(), context.nodeIndex(), context.nodes(), task.placement(), task.threads())
                .generateAll(table -> context.throwIfCancelled());
        context.attributes().put(CATALOG, Catalog.of(tables));
        ObjectNode reply = ResultCodec.object();
        ObjectNode rows = reply.putObject("rows");
        for (Table table : tables) {
            rows.put(table.name(), table.rowCount());
        }
        reply.put("nanos", System.nanoTime() - start);
        return TaskReply.of(reply);
    }
}
