package dev.faro.bench.middleware;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.tpch.TpchLoadHandler;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.engine.exec.Catalog;
import dev.faro.engine.tpcc.TpccGenerator;
import dev.faro.engine.vector.Table;
import java.util.List;

/**
 * Cluster task {@value #TYPE}: generates this node's share of a TPC-C database ({@link TpccGenerator}: every node
 * generates the whole database from the seed and keeps its blocks) and leaves it where the query task reads its
 * catalog ({@link TpchLoadHandler#CATALOG}), replacing what was there. Payload {@code {"warehouses": W, "seed": S}};
 * reply: rows per table and the time taken.
 */
public final class TpccLoadHandler implements TaskHandler {

    /** The task type. */
    public static final String TYPE = "bench.middleware.tpcc.load";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) {
        int warehouses = payload.path("warehouses").asInt(0);
        if (warehouses < 1
                || warehouses > MiddlewareBenchmarkConfig.MAX_WAREHOUSES
                || !payload.path("seed").isIntegralNumber()) {
            throw new IllegalArgumentException("bad " + TYPE + " payload: " + payload);
        }
        long start = System.nanoTime();
        context.attributes().remove(TpchLoadHandler.CATALOG);
        List<Table> tables = new TpccGenerator(
                        warehouses, payload.path("seed").asLong(), context.nodeIndex(), context.nodes())
                .generateAll();
        context.attributes().put(TpchLoadHandler.CATALOG, Catalog.of(tables));
        ObjectNode reply = JsonNodeFactory.instance.objectNode();
        ObjectNode rows = reply.putObject("rows");
        for (Table table : tables) {
            rows.put(table.name(), table.rowCount());
        }
        reply.put("nanos", System.nanoTime() - start);
        return TaskReply.of(reply);
    }
}
