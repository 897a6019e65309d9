package dev.faro.bench.fabric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import java.util.Arrays;
import java.util.List;

/**
 * Cluster task {@value #TYPE}: one command of {@code faro bench fabric}'s protocol (see this package's documentation)
 * for this worker's {@link FabricBenchWorker}, which lives in the worker's attributes from the first command to
 * {@value #CLOSE}. Payload: {@code {"command": "VERB arg1 arg2"}}; an empty command does nothing (the other node of a
 * round meant for one). Replies {@code {"reply": "..."}}. A failure fails the task with its message on one line; a
 * {@link dev.faro.fabric.FaroException} (a provider that is not installed, say) keeps its category and leaves no stack
 * trace in the worker's log.
 *
 * <p>Node 0 plays the initiator, node 1 the target. Coordination code: the timed loops run inside MEASURE on the
 * initiator and in the target's receiver thread, never through the coordinator.
 */
public final class FabricBenchHandler implements TaskHandler {

    /** The task type. */
    public static final String TYPE = "bench.fabric";

    /** The command that closes this worker's benchmark node (its fabric, buffers and point). */
    static final String CLOSE = "CLOSE";

    private static final String WORKER = "bench.fabric.worker";

    @Override
    public String type() {
        return TYPE;
    }

    /** The payload of {@code command} (empty: nothing to do). */
    static ObjectNode payload(String command) {
        return JsonNodeFactory.instance.objectNode().put("command", command);
    }

    /** The role of node {@code nodeIndex}: {@code initiator} or {@code target}. */
    static String role(int nodeIndex) {
        return nodeIndex == 0 ? FabricBenchmark.INITIATOR : FabricBenchmark.TARGET;
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws Exception {
        String[] words = payload.path("command").asText("").strip().split(" +");
        if (words[0].isEmpty()) {
            return TaskReply.empty();
        }
        if (words[0].equals(CLOSE)) {
            if (context.attributes().remove(WORKER) instanceof FabricBenchWorker worker) {
                worker.close();
            }
            return TaskReply.empty();
        }
        FabricBenchWorker worker = (FabricBenchWorker)
                context.attributes().computeIfAbsent(WORKER, key -> new FabricBenchWorker(role(context.nodeIndex())));
        List<String> arguments = Arrays.asList(words).subList(1, words.length);
        String reply = worker.onCommand(words[0], arguments);
        return TaskReply.of(JsonNodeFactory.instance.objectNode().put("reply", reply == null ? "" : reply));
    }
}
