package dev.faro.cluster.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Test task {@code echo}: answers the payload, the node's index and count, its pid and the setup payloads this
 * worker has seen (from {@link RememberHandler}); the binary payload is "node N".
 */
public final class EchoHandler implements TaskHandler {

    @Override
    public String type() {
        return "echo";
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) {
        ObjectNode result = Json.object();
        result.set("payload", payload);
        result.put("node", context.nodeIndex());
        result.put("nodes", context.nodes());
        result.put("pid", ProcessHandle.current().pid());
        result.set("remembered", Json.tree(context.attributes().getOrDefault(RememberHandler.ATTRIBUTE, List.of())));
        result.put("lastFailure", String.valueOf(context.attributes().getOrDefault(FailHandler.LAST_FAILURE, "")));
        return TaskReply.of(result, ("node " + context.nodeIndex()).getBytes(StandardCharsets.UTF_8));
    }
}
