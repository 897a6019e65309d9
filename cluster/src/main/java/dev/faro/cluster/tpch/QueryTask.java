package dev.faro.cluster.tpch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.protocol.ProtocolException;
import dev.faro.engine.plan.PlanJson;
import dev.faro.engine.plan.PlanNode;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.Objects;

/**
 * The payload of a {@value QueryHandler#TYPE} task: {@code {"queryId": "q7", "plan": {...}, "design": "MESQ_SR",
 * "transport": "FABRIC", "threads": 2}} ({@code transport} may be absent: {@code FABRIC}; {@code TCP_SOCKETS} is the
 * socket baseline, and the design is then ignored). The coordinator writes it with {@link #toJson}, each worker reads
 * it with {@link #fromJson}.
 *
 * @param queryId names the query's exchanges, the same on every node
 * @param plan the physical plan (JSON, see {@link PlanJson})
 * @param design the shuffle design of the exchanges over the fabric
 * @param transport what carries the exchanges
 * @param threads engine threads on each node, 1 to {@value #MAX_THREADS}
 */
public record QueryTask(String queryId, PlanNode plan, EndpointDesign design, ShuffleTransport transport, int threads) {

    /** The most threads a task may ask of a node: more is a corrupt payload, not a plan for this hardware. */
    public static final int MAX_THREADS = 4096;

    private static final String WHAT = QueryHandler.TYPE + " payload";

    public QueryTask {
        Objects.requireNonNull(queryId, "queryId is null");
        Objects.requireNonNull(plan, "plan is null");
        Objects.requireNonNull(design, "design is null");
        Objects.requireNonNull(transport, "transport is null");
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
        payload.put("design", design.name());
        payload.put("transport", transport.name());
        payload.put("threads", threads);
        return payload;
    }

    /**
     * Decodes a payload a peer sent.
     *
     * @throws ProtocolException when it is not one (a field missing, of the wrong kind or out of range, or a plan
     *     that does not decode or validate)
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
        EndpointDesign design = Json.enumValue(payload, "design", EndpointDesign.class, WHAT);
        ShuffleTransport transport = payload.hasNonNull("transport")
                ? Json.enumValue(payload, "transport", ShuffleTransport.class, WHAT)
                : ShuffleTransport.FABRIC;
        int threads = Json.intNumber(payload, "threads", WHAT);
        try {
            return new QueryTask(queryId, plan, design, transport, threads);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(WHAT + ": " + e.getMessage(), e);
        }
    }
}
