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
import dev.faro.shuffle.transport.ExchangeTransport;
import dev.faro.shuffle.transport.ExchangeTransports;
import dev.faro.shuffle.transport.TransportNode;

/**
 * Task {@value #TYPE}: executes a plan on this node against the catalog a {@link TpchLoadHandler} left, exchanging
 * rows with the other nodes over the worker's fabric. Payload: a {@link QueryTask}. Reply: elapsed time and bytes
 * shuffled by this node, and the result's columns and rows (only node 0 has rows: plans end in a GATHER).
 *
 * <p>Stalls: the exchanges fail after the cluster's {@code exchangeStallTimeout} with no progress anywhere (this
 * node's batches, or any node's, relayed by the heartbeats; see {@link WorkerContext#progress()}), not after a fixed
 * time: a node starts receiving an exchange when it starts the pipeline that feeds it, so it may wait for a slower
 * peer as long as that peer's pipeline runs, but never for a query where nothing moves.
 */
public final class QueryHandler implements TaskHandler {

    public static final String TYPE = "query";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) {
        Object catalog = context.attributes().get(TpchLoadHandler.CATALOG);
        if (!(catalog instanceof Catalog tables)) {
            throw new IllegalStateException(
                    "node " + context.nodeIndex() + " has no data loaded; run " + TpchLoadHandler.TYPE + " first");
        }
        QueryTask task = QueryTask.fromJson(payload);
        ExecutionContext execution = context.nodes() == 1
                ? ExecutionContext.local(tables, task.threads())
                : ExecutionContext.distributed(tables, task.threads(), transport(context, task), task.queryId())
                        .withProgress(context.progress(), context.exchangeStallTimeout());
        QueryResult result = QueryExecutor.execute(task.plan(), execution);
        ObjectNode reply = ResultCodec.object();
        reply.put("nanos", result.statistics().elapsedNanos());
        reply.put("bytesSent", result.statistics().bytesSent());
        reply.put(
                "bytesReceived",
                result.statistics().exchanges().stream()
                        .mapToLong(dev.faro.engine.exec.ExchangeStatistics::bytesReceived)
                        .sum());
        reply.set("columns", ResultCodec.encodeColumns(result.schema()));
        reply.set("rows", ResultCodec.encodeRows(result.schema(), result.batches()));
        return TaskReply.of(reply);
    }

    /** The worker attribute holding the objects transports keep across queries ({@link TransportNode#shared}). */
    static final String TRANSPORT_OBJECTS = "transport.shared";

    /**
     * The task's transport at this worker, with the cluster's stall timeout and progress. The objects transports share
     * across queries live as long as the worker's session, which closes them when it ends.
     */
    static ExchangeTransport transport(WorkerContext context, QueryTask task) {
        TransportNode.Shared shared = (TransportNode.Shared)
                context.attributes().computeIfAbsent(TRANSPORT_OBJECTS, key -> new TransportNode.Shared());
        return ExchangeTransports.create(
                task.transport(),
                new TransportNode(
                        context.fabric(),
                        context.exchange(),
                        context.secret(),
                        context.exchangeStallTimeout(),
                        context.progress(),
                        shared));
    }
}
