package dev.faro.cluster.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.function.IntFunction;

/**
 * One {@link Coordinator#runOnAll} round: waits for a ready cluster, sends the task to every node, and gathers the
 * replies; the first failure wins, except that a task's {@code NETWORK} failure gives way to a worker death seen
 * within {@link #DEATH_PREFERENCE_WINDOW} (the death is the cause, the peer's failure its consequence). On failure
 * the task is cancelled on the nodes still running it. Coordination code; the round's calling thread only.
 */
final class TaskRound {

    /** After a task's NETWORK failure, how long to look for the worker death that probably caused it. */
    static final Duration DEATH_PREFERENCE_WINDOW = Duration.ofSeconds(1);

    private final Coordinator coordinator;
    private final String type;
    private final IntFunction<JsonNode> payloadForNode;
    private final Duration timeout;

    TaskRound(Coordinator coordinator, String type, IntFunction<JsonNode> payloadForNode, Duration timeout) {
        this.coordinator = coordinator;
        this.type = type;
        this.payloadForNode = payloadForNode;
        this.timeout = timeout;
    }

    List<TaskReply> run() {
        ClusterConfig config = coordinator.config();
        List<WorkerConnection> members =
                coordinator.awaitReady(System.nanoTime() + config.readyTimeout().toNanos());
        int nodes = members.size();
        List<JsonNode> payloads = new ArrayList<>(nodes);
        for (int node = 0; node < nodes; node++) {
            payloads.add(payloadForNode.apply(node)); // all before the first send: a throwing function sends nothing
        }
        long taskId = coordinator.nextTaskId();
        coordinator.gathers().open(taskId, members);
        try {
            List<CompletableFuture<TaskReply>> futures = new ArrayList<>(nodes);
            LinkedBlockingQueue<Integer> done = new LinkedBlockingQueue<>();
            for (int node = 0; node < nodes; node++) {
                int finished = node;
                CompletableFuture<TaskReply> future = members.get(node).submit(taskId, type, payloads.get(node));
                futures.add(future);
                future.whenComplete((reply, failure) -> done.add(finished));
            }
            NodeFailure failure = await(members, futures, done);
            if (failure == null) {
                return futures.stream().map(CompletableFuture::join).toList();
            }
            for (int node = 0; node < nodes; node++) {
                if (!futures.get(node).isDone()) {
                    members.get(node).cancel(taskId, failure.getMessage(), config.cancelGrace());
                }
            }
            throw failure.toClusterException();
        } finally {
            coordinator.gathers().close(taskId);
        }
    }

    /** Waits for every reply; returns the failure that ends the round, or null when every node answered. */
    private NodeFailure await(
            List<WorkerConnection> members,
            List<CompletableFuture<TaskReply>> futures,
            LinkedBlockingQueue<Integer> done) {
        long deadlineNanos = System.nanoTime() + timeout.toNanos();
        int remaining = futures.size();
        try {
            while (remaining > 0) {
                Integer node = done.poll(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (node == null) {
                    return timedOut(members, futures);
                }
                remaining--;
                NodeFailure failure = failureOf(futures.get(node));
                if (failure != null) {
                    return failure.workerLost() || failure.category() != Category.NETWORK
                            ? failure
                            : preferLostWorker(failure, futures, done, remaining);
                }
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new NodeFailure(
                    Kind.CLOSED, Category.CLOSED, -1, "interrupted while waiting for task '" + type + "'");
        }
    }

    private NodeFailure preferLostWorker(
            NodeFailure first,
            List<CompletableFuture<TaskReply>> futures,
            LinkedBlockingQueue<Integer> done,
            int remaining)
            throws InterruptedException {
        long deadlineNanos = System.nanoTime() + DEATH_PREFERENCE_WINDOW.toNanos();
        while (remaining > 0) {
            Integer node = done.poll(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (node == null) {
                return first;
            }
            remaining--;
            NodeFailure failure = failureOf(futures.get(node));
            if (failure != null && failure.workerLost()) {
                return failure;
            }
        }
        return first;
    }

    private NodeFailure timedOut(List<WorkerConnection> members, List<CompletableFuture<TaskReply>> futures) {
        List<String> running = new ArrayList<>();
        int first = -1;
        for (int node = 0; node < futures.size(); node++) {
            if (!futures.get(node).isDone()) {
                running.add(members.get(node).describe());
                first = first < 0 ? node : first;
            }
        }
        return new NodeFailure(
                Kind.TIMEOUT,
                Category.TIMEOUT,
                first,
                "task '" + type + "' did not finish within " + timeout.toMillis() + " ms on "
                        + String.join(", ", running));
    }

    private static NodeFailure failureOf(CompletableFuture<TaskReply> future) {
        if (!future.isCompletedExceptionally()) {
            return null;
        }
        try {
            future.get();
            return null;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof NodeFailure failure) {
                return failure;
            }
            return new NodeFailure(Kind.TASK_FAILED, Category.INVALID_ARGUMENT, -1, String.valueOf(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new NodeFailure(Kind.CLOSED, Category.CLOSED, -1, "interrupted");
        }
    }
}
