package dev.faro.cluster.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;

/**
 * Test task {@code hang}: the node named by {@code payload.node} ignores cancels and interrupts and never ends; the
 * other nodes end when cancelled.
 */
public final class HangHandler implements TaskHandler {

    @Override
    public String type() {
        return "hang";
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws InterruptedException {
        if (context.nodeIndex() == payload.path("node").asInt()) {
            while (true) {
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException ignored) {
                    // deliberately deaf
                }
            }
        }
        WaitForCancel.await(context);
        return TaskReply.empty();
    }
}
