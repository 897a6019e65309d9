package dev.faro.cluster.tpch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.engine.exec.Catalog;
import dev.faro.engine.exec.ExecutionContext;
import dev.faro.engine.exec.QueryExecutor;
import dev.faro.engine.exec.QueryResult;
import dev.faro.engine.exec.ShuffleTransport;
import dev.faro.engine.plan.PlanJson;
import dev.faro.engine.plan.PlanNode;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.time.Duration;

/**
 * Task {@value #TYPE}: executes a plan on this node against the catalog a {@link TpchLoadHandler} left, exchanging
 * rows with the other nodes over the worker's fabric. Payload: {@code {"queryId": "q7", "plan": {...},
 * "design": "MESQ_SR", "transport": "FABRIC", "threads": 2}} (transport {@code TCP_SOCKETS}: the socket baseline). Reply: elapsed time and bytes shuffled by this node, and the result's columns
 * and rows (only node 0 has rows: plans end in a GATHER).
 */
public final class QueryHandler implements TaskHandler {

    public static final String TYPE = "query";

    /**
     * How long an exchange may wait without progress. A node starts receiving an exchange when it starts the pipeline
     * that feeds it, so a slow node can lag the others by a pipeline's run time; dead peers are noticed sooner by the
     * fabric (error completions) and by the coordinator's heartbeats.
     */
    static final Duration EXCHANGE_STALL_TIMEOUT = Duration.ofMinutes(2);

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) {
        Object catalog = context.attributes().get(TpchLoadHandler.CATALOG);
        if (!(catalog instanceof Catalog tables)) {
            throw new IllegalStateException("node " + context.nodeIndex() + " has no data loaded; run "
                    + TpchLoadHandler.TYPE + " first");
        }
        PlanNode plan = PlanJson.fromJson(payload.required("plan").toString());
        EndpointDesign design = EndpointDesign.valueOf(payload.required("design").asText());
        int threads = payload.required("threads").asInt();
        String queryId = payload.required("queryId").asText();
        ShuffleTransport transport = ShuffleTransport.valueOf(payload.path("transport").asText("FABRIC"));
        ExecutionContext execution = context.nodes() == 1 ? ExecutionContext.local(tables, threads)
                : ExecutionContext.distributed(tables, threads, context.fabric(), context.exchange(), design, queryId)
                        .withTransport(transport)
                        .withSecret(context.secret())
                        .withEndpointTweaks(config -> config.withStallTimeout(EXCHANGE_STALL_TIMEOUT));
        QueryResult result = QueryExecutor.execute(plan, execution);
        ObjectNode reply = ResultCodec.object();
        reply.put("nanos", result.statistics().elapsedNanos());
        reply.put("bytesSent", result.statistics().bytesSent());
        reply.put("bytesReceived", result.statistics().exchanges().stream()
                .mapToLong(dev.faro.engine.exec.ExchangeStatistics::bytesReceived).sum());
        reply.set("columns", ResultCodec.encodeColumns(result.schema()));
        reply.set("rows", ResultCodec.encodeRows(result.schema(), result.batches()));
        return TaskReply.of(reply);
    }
}
