package dev.faro.cluster.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.ClusterException;
import dev.faro.cluster.ClusterException.Kind;
import dev.faro.cluster.TaskReply;
import dev.faro.fabric.FaroException.Category;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * One {@link Coordinator#runOnEach} round: like {@link TaskRound}, but over the first {@code nodes} nodes only, and it
 * collects every node's answer instead of ending at the first failure. The first failure cancels the task on the
 * nodes still running (their pending all-gathers fail at once; how the rest of the task ends is the handler's
 * choice), and the round goes on waiting for their answers; at the timeout the nodes still running are cancelled and
 * answered {@code TIMEOUT}. A worker that does not end a cancelled task within the cancel grace is replaced as usual,
 * which answers its node. Coordination code; the round's calling thread only.
 */
final class EveryNodeRound {

    private final Coordinator coordinator;
    private final int nodes;
    private final String type;
    private final IntFunction<JsonNode> payloadForNode;
    private final Duration timeout;

    EveryNodeRound(
            Coordinator coordinator, int nodes, String type, IntFunction<JsonNode> payloadForNode, Duration timeout) {
        if (nodes < 1 || nodes > coordinator.nodes()) {
            throw new IllegalArgumentException("a round needs 1 to " + coordinator.nodes() + " nodes: nodes=" + nodes);
        }
        this.coordinator = coordinator;
        this.nodes = nodes;
        this.type = type;
        this.payloadForNode = payloadForNode;
        this.timeout = timeout;
    }

    List<NodeAnswer> run() {
        ClusterConfig config = coordinator.config();
        List<WorkerConnection> members = coordinator
                .awaitReady(System.nanoTime() + config.readyTimeout().toNanos())
                .subList(0, nodes);
        List<JsonNode> payloads = new ArrayList<>(nodes);
        for (int node = 0; node < nodes; node++) {
            payloads.add(payloadForNode.apply(node));
        }
        long taskId = coordinator.nextTaskId();
        coordinator.gathers().open(taskId, members);
        try {
            List<CompletableFuture<TaskReply>> futures = new ArrayList<>(nodes);
            LinkedBlockingQueue<Integer> done = new LinkedBlockingQueue<>();
            AtomicReferenceArray<NodeAnswer> answers = new AtomicReferenceArray<>(nodes);
            for (int node = 0; node < nodes; node++) {
                int finished = node;
                CompletableFuture<TaskReply> future = members.get(node).submit(taskId, type, payloads.get(node), nodes);
                futures.add(future);
                future.whenComplete((reply, failure) -> {
                    answers.set(finished, answer(finished, future));
                    done.add(finished);
                });
            }
            collect(members, futures, answers, done, taskId);
            List<NodeAnswer> all = new ArrayList<>(nodes);
            for (int node = 0; node < nodes; node++) {
                all.add(answers.get(node));
            }
            return List.copyOf(all);
        } finally {
            coordinator.gathers().close(taskId);
        }
    }

    private void collect(
            List<WorkerConnection> members,
            List<CompletableFuture<TaskReply>> futures,
            AtomicReferenceArray<NodeAnswer> answers,
            LinkedBlockingQueue<Integer> done,
            long taskId) {
        long deadlineNanos = System.nanoTime() + timeout.toNanos();
        boolean cancelled = false;
        int remaining = nodes;
        try {
            while (remaining > 0) {
                Integer node = done.poll(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (node == null) {
                    break;
                }
                remaining--;
                NodeAnswer answer = answers.get(node);
                if (!cancelled && !answer.succeeded()) {
                    cancelled = true;
                    cancelRunning(members, futures, taskId, answer.failure().getMessage());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (remaining == 0) {
            return;
        }
        String message = "task '" + type + "' did not finish within " + timeout.toMillis() + " ms";
        cancelRunning(members, futures, taskId, message);
        long now = System.nanoTime();
        for (int node = 0; node < nodes; node++) {
            if (!futures.get(node).isDone()) {
                answers.set(
                        node,
                        new NodeAnswer(
                                node,
                                null,
                                new ClusterException(
                                        Kind.TIMEOUT,
                                        Category.TIMEOUT,
                                        node,
                                        members.get(node).describe() + ": " + message),
                                now));
            } else if (answers.get(node) == null) {
                answers.set(node, answer(node, futures.get(node)));
            }
        }
    }

    private void cancelRunning(
            List<WorkerConnection> members, List<CompletableFuture<TaskReply>> futures, long taskId, String reason) {
        for (int node = 0; node < nodes; node++) {
            if (!futures.get(node).isDone()) {
                members.get(node).cancel(taskId, reason, coordinator.config().cancelGrace());
            }
        }
    }

    private static NodeAnswer answer(int node, CompletableFuture<TaskReply> future) {
        long now = System.nanoTime();
        try {
            return new NodeAnswer(node, future.get(), null, now);
        } catch (ExecutionException e) {
            ClusterException failure = e.getCause() instanceof NodeFailure nodeFailure
                    ? nodeFailure.toClusterException()
                    : new ClusterException(
                            Kind.TASK_FAILED, Category.INVALID_ARGUMENT, node, String.valueOf(e.getCause()));
            return new NodeAnswer(node, null, failure, now);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new NodeAnswer(
                    node, null, new ClusterException(Kind.CLOSED, Category.CLOSED, node, "interrupted"), now);
        }
    }
}
