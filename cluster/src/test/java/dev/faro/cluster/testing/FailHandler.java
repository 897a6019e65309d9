package dev.faro.cluster.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;

/**
 * Test task {@code fail}: throws on the node named by {@code payload.node}; the other nodes wait for the cancel
 * (at most 60 s) and report it.
 */
public final class FailHandler implements TaskHandler {

    @Override
    public String type() {
        return "fail";
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws InterruptedException {
        if (context.nodeIndex() == payload.path("node").asInt()) {
            throw new IllegalStateException("deliberate failure on node " + context.nodeIndex());
        }
        WaitForCancel.await(context);
        return TaskReply.empty();
    }
}
