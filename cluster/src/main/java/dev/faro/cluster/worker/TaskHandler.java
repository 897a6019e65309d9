package dev.faro.cluster.worker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.TaskReply;

/**
 * Gives one task type its meaning on a worker. Implementations are found with {@link java.util.ServiceLoader}: list
 * the class in {@code META-INF/services/dev.faro.cluster.worker.TaskHandler} of any jar or classes directory on the
 * worker's class path; they need a public no-argument constructor. One instance serves every task of its type, on
 * the task's own thread, possibly several at once: keep per-task state in locals and per-worker state in
 * {@link WorkerContext#attributes()}.
 */
public interface TaskHandler {

    /** The task type this handler serves, e.g. {@code "echo"}; unique among the installed handlers. */
    String type();

    /**
     * Runs one task on this node.
     *
     * @param context this node's index and count, its fabric, the task's peer exchange, the worker's attributes and
     *     the task's cancellation state
     * @param payload the JSON the coordinator sent for this node
     * @return what goes back to the coordinator
     * @throws Exception any failure; it fails the round on the coordinator with the exception's message (a
     *     {@link dev.faro.fabric.FaroException} keeps its category)
     */
    TaskReply handle(WorkerContext context, JsonNode payload) throws Exception;
}
