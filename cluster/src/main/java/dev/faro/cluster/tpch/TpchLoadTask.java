package dev.faro.cluster.tpch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.protocol.ProtocolException;
import dev.faro.engine.tpch.Placement;
import java.util.Objects;

/**
 * The payload of a {@value TpchLoadHandler#TYPE} task: {@code {"scaleFactor": 1.0, "placement": "random",
 * "threads": 2}}. The coordinator writes it with {@link #toJson}, each worker reads it with {@link #fromJson}.
 *
 * @param scaleFactor the TPC-H scale factor, positive and finite
 * @param placement where each tuple lives
 * @param threads generator threads on each node, 1 to {@value QueryTask#MAX_THREADS}
 */
public record TpchLoadTask(double scaleFactor, Placement placement, int threads) {

    private static final String WHAT = TpchLoadHandler.TYPE + " payload";

    public TpchLoadTask {
        if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
            throw new IllegalArgumentException("the scale factor must be positive, got " + scaleFactor);
        }
        Objects.requireNonNull(placement, "placement is null");
        QueryTask.checkThreads(threads);
    }

    /** The load a session with {@code settings} asks of every node. */
    static TpchLoadTask of(TpchSettings settings) {
        return new TpchLoadTask(settings.scaleFactor(), settings.placement(), settings.threads());
    }

    public ObjectNode toJson() {
        ObjectNode payload = Json.object();
        payload.put("scaleFactor", scaleFactor);
        payload.put("placement", placement.optionName());
        payload.put("threads", threads);
        return payload;
    }

    /**
     * Decodes a payload a peer sent.
     *
     * @throws ProtocolException when it is not one (a field missing, of the wrong kind or out of range)
     */
    public static TpchLoadTask fromJson(JsonNode payload) {
        Json.requireObject(payload, WHAT);
        double scaleFactor = Json.number(payload, "scaleFactor", WHAT);
        String placement = Json.text(payload, "placement", WHAT);
        int threads = Json.intNumber(payload, "threads", WHAT);
        try {
            return new TpchLoadTask(scaleFactor, Placement.parse(placement), threads);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(WHAT + ": " + e.getMessage(), e);
        }
    }
}
