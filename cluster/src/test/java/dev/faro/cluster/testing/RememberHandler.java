package dev.faro.cluster.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Test task {@code remember}: a setup task that appends its payload's text to a worker attribute. */
public final class RememberHandler implements TaskHandler {

    static final String ATTRIBUTE = "test.remembered";

    @Override
    public String type() {
        return "remember";
    }

    @Override
    @SuppressWarnings("unchecked")
    public TaskReply handle(WorkerContext context, JsonNode payload) {
        List<String> seen = (List<String>)
                context.attributes().computeIfAbsent(ATTRIBUTE, key -> new CopyOnWriteArrayList<String>());
        seen.add(payload.asText());
        return TaskReply.empty();
    }
}
