package dev.faro.cluster.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.fabric.FaroException;

/**
 * Test task {@code fail}: throws on the node named by {@code payload.node}; the other nodes wait for the cancel
 * (at most 60 s) and report it, in an all-gather that cannot complete when {@code payload.gather} is true.
 */
public final class FailHandler implements TaskHandler {

    /** Where the other nodes record how their all-gather ended ({@code payload.gather}); echo reports it. */
    static final String LAST_FAILURE = "test.lastFailure";

    @Override
    public String type() {
        return "fail";
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws InterruptedException {
        if (context.nodeIndex() == payload.path("node").asInt()) {
            throw new IllegalStateException("deliberate failure on node " + context.nodeIndex());
        }
        if (payload.path("gather").asBoolean()) {
            try {
                context.exchange().allGather("never-complete", new byte[0]);
            } catch (FaroException e) {
                context.attributes().put(LAST_FAILURE, e.category() + " " + e.getMessage());
                throw e;
            }
        }
        WaitForCancel.await(context);
        return TaskReply.empty();
    }
}
