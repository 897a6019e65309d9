package dev.faro.bench.shuffle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.fabric.FaroException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;

/**
 * Cluster task {@value #TYPE}: this node's part of one {@link ShuffleCase} ({@link NodeShuffle}) on the worker's
 * fabric, its endpoints opened through the task's relayed exchange. Payload: {@code caseId}, {@code case} (the case's
 * {@link ShuffleCase#encode() words}) and {@code shmDirectory} (the {@code shm} fabric's directory, for the leftover-file check; absent on
 * other fabrics);
 * or {@code idle: true}, which only waits for the previous case. Replies {@code {"result": <NodeResult words>}}; a
 * case that fails throws its first failure at once (a {@link FaroException} keeps its category), while the case's
 * conductor closes the endpoints in the background.
 *
 * <p>One case at a time per worker: each task first waits for the previous case on this worker to end (endpoints
 * closed). A cancel (another node failed, or the round's deadline) fails the case's pending all-gathers, but the data
 * threads go on until they end by themselves (a dead peer fails them within the fabric's peer timeout, a stall within
 * the stall timeout), so that each node reports what it saw itself; a case that never ends gets its worker replaced
 * by the cluster after the cancel grace. Coordination code.
 */
public final class ShuffleCaseHandler implements TaskHandler {

    /** The task type. */
    public static final String TYPE = "bench.shuffle-case";

    /** How long a task waits for the previous case on its worker to end. */
    static final Duration PREVIOUS_CASE_WAIT = Duration.ofSeconds(45);

    /** Exit status of a worker whose previous case's threads never stopped (the cluster replaces it). */
    static final int EXIT_STUCK = 70;

    private static final String CURRENT_CASE = "bench.shuffle.current-case";

    @Override
    public String type() {
        return TYPE;
    }

    /** The payload of case {@code caseId}; {@code shmDirectory} is null when the workers' fabric is not shm. */
    static ObjectNode payload(int caseId, ShuffleCase shuffleCase, Path shmDirectory) {
        ObjectNode payload = JsonNodeFactory.instance.objectNode();
        payload.put("caseId", caseId);
        payload.put("case", shuffleCase.encode());
        if (shmDirectory != null) {
            payload.put("shmDirectory", shmDirectory.toString());
        }
        return payload;
    }

    /** The payload of a task that waits until the worker's previous case has ended. */
    static ObjectNode idlePayload() {
        return JsonNodeFactory.instance.objectNode().put("idle", true);
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws Exception {
        awaitPrevious(context);
        if (payload.path("idle").asBoolean()) {
            return TaskReply.empty();
        }
        ShuffleCase shuffleCase =
                ShuffleCase.decode(List.of(payload.path("case").asText().split(" ")));
        if (shuffleCase.nodes() != context.nodes()) {
            throw new IllegalArgumentException(
                    "a case of " + shuffleCase.nodes() + " nodes in a round of " + context.nodes());
        }
        Path nodeDirectory = payload.hasNonNull("shmDirectory")
                ? Path.of(payload.path("shmDirectory").asText())
                        .resolve(String.format("faro-%016x", context.fabric().node()))
                : null;
        NodeShuffle shuffle = new NodeShuffle(
                context.fabric(),
                context.secret(),
                nodeDirectory,
                shuffleCase,
                payload.path("caseId").asInt(),
                context.nodeIndex(),
                context.exchange());
        context.attributes().put(CURRENT_CASE, shuffle);
        shuffle.start();
        NodeResult result = awaitOutcome(shuffle);
        ObjectNode reply = JsonNodeFactory.instance.objectNode();
        reply.put("result", result.encode());
        return TaskReply.of(reply);
    }

    /**
     * Waits for the case's outcome, through cancels (which interrupt this thread): the case ends by itself, or the
     * cluster replaces the worker.
     */
    private static NodeResult awaitOutcome(NodeShuffle shuffle) throws Exception {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return shuffle.outcome().get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Exception failure) {
                        throw failure;
                    }
                    throw (Error) e.getCause();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits until this worker's previous case has closed its endpoints. A case whose threads never stopped leaves
     * the worker unusable: it exits, and the cluster starts a replacement.
     */
    private static void awaitPrevious(WorkerContext context) throws InterruptedException {
        if (!(context.attributes().get(CURRENT_CASE) instanceof NodeShuffle previous)) {
            return;
        }
        if (!previous.awaitEnd(PREVIOUS_CASE_WAIT) || previous.stuck()) {
            System.err.println("faro worker: node " + context.nodeIndex() + ": the threads of the previous shuffle"
                    + " case did not stop; exiting so that the cluster replaces this worker");
            System.err.flush();
            Runtime.getRuntime().halt(EXIT_STUCK);
        }
    }
}
