package dev.faro.cluster.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;

/**
 * Test task {@code halt}: the node named by {@code payload.node} halts its JVM with exit code 137 at once (as a
 * SIGKILL would end it); the other nodes wait for the cancel.
 */
public final class HaltHandler implements TaskHandler {

    @Override
    public String type() {
        return "halt";
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws InterruptedException {
        if (context.nodeIndex() == payload.path("node").asInt()) {
            Runtime.getRuntime().halt(137);
        }
        WaitForCancel.await(context);
        return TaskReply.empty();
    }
}
