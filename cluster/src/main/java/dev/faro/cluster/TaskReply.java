package dev.faro.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;

/**
 * What one node's task returned: a JSON result and an optional binary payload (e.g. result rows in a compact
 * encoding). A handler builds it; the coordinator's {@code runOnAll} returns one per node, at the node's index.
 *
 * @param result the JSON result; {@link NullNode} when the task has nothing to say
 * @param payload bytes shipped next to the JSON unencoded; empty when none
 */
public record TaskReply(JsonNode result, byte[] payload) {

    private static final byte[] NO_PAYLOAD = new byte[0];

    public TaskReply {
        result = result == null ? NullNode.getInstance() : result;
        payload = payload == null ? NO_PAYLOAD : payload;
    }

    /** A reply with a JSON result only. */
    public static TaskReply of(JsonNode result) {
        return new TaskReply(result, NO_PAYLOAD);
    }

    /** A reply with a JSON result and a binary payload. */
    public static TaskReply of(JsonNode result, byte[] payload) {
        return new TaskReply(result, Objects.requireNonNull(payload, "payload is null"));
    }

    /** A reply that carries nothing. */
    public static TaskReply empty() {
        return new TaskReply(NullNode.getInstance(), NO_PAYLOAD);
    }

    @Override
    public String toString() {
        return "TaskReply[" + result + (payload.length == 0 ? "" : ", " + payload.length + " B") + "]";
    }
}
