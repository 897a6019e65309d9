package dev.faro.cluster.tpch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.protocol.ProtocolException;
import dev.faro.engine.plan.PlanJson;
import dev.faro.engine.plan.PlanNode;
import dev.faro.shuffle.transport.ExchangeTransports;
import java.util.Objects;

/**
 * The payload of a {@value QueryHandler#TYPE} task: {@code {"queryId": "q7", "plan": {...}, "transport": "MESQ/SR",
 * "threads": 2}}. The coordinator writes it with {@link #toJson}, each worker reads it with {@link #fromJson}.
 *
 * @param queryId names the query's exchanges, the same on every node
 * @param plan the physical plan (JSON, see {@link PlanJson})
 * @param transport what carries the exchanges: an {@link ExchangeTransports} name, in the canonical form
 * @param threads engine threads on each node, 1 to {@value #MAX_THREADS}
 */
public record QueryTask(String queryId, PlanNode plan, String transport, int threads) {

    /** The most threads a task may ask of a node: more is a corrupt payload, not a plan for this hardware. */
    public static final int MAX_THREADS = 4096;

    private static final String WHAT = QueryHandler.TYPE + " payload";

    public QueryTask {
        Objects.requireNonNull(queryId, "queryId is null");
        Objects.requireNonNull(plan, "plan is null");
        transport = ExchangeTransports.resolve(Objects.requireNonNull(transport, "transport is null"));
        checkThreads(threads);
    }

    static void checkThreads(int threads) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads per node must be 1 to " + MAX_THREADS + ", got " + threads);
        }
    }

    public ObjectNode toJson() {
        ObjectNode payload = Json.object();
        payload.put("queryId", queryId);
        payload.set("plan", PlanJson.mapper().valueToTree(plan));
        payload.put("transport", transport);
        payload.put("threads", threads);
        return payload;
    }

    /**
     * Decodes a payload a peer sent.
     *
     * @throws ProtocolException when it is not one (a field missing, of the wrong kind or out of range, a plan that
     *     does not decode or validate, or a transport this worker does not have)
     */
    public static QueryTask fromJson(JsonNode payload) {
        Json.requireObject(payload, WHAT);
        String queryId = Json.text(payload, "queryId", WHAT);
        PlanNode plan;
        try {
            plan = PlanJson.fromJson(Json.required(payload, "plan", WHAT).toString());
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(WHAT + ": " + e.getMessage(), e);
        }
        String transport = Json.text(payload, "transport", WHAT);
        int threads = Json.intNumber(payload, "threads", WHAT);
        try {
            return new QueryTask(queryId, plan, transport, threads);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(WHAT + ": " + e.getMessage(), e);
        }
    }
}
