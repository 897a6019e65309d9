package dev.faro.bench.shuffle;

import dev.faro.cluster.ClusterException;
import dev.faro.cluster.coordinator.NodeAnswer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A case the {@link ShuffleRunner} has launched: one cluster round ({@code Coordinator.runOnEach}) of
 * {@link ShuffleCaseHandler} tasks on the first {@code nodes} workers, run on a thread of its own so that the caller
 * can watch it. {@link #awaitStarted} learns from the coordinator's exchange listener that the endpoints are open at
 * every node; {@link #await()} turns the nodes' answers into a {@link CaseOutcome}. The round's timeout is the case's
 * deadline, so {@link #await()} always returns.
 *
 * <p>Coordination code. The listener thread calls {@link #onStarted}; the caller the rest.
 */
public final class RunningCase {

    private final ShuffleCase shuffleCase;
    private final ShuffleTuples.Expected expected;
    private final int caseId;
    private final CountDownLatch started = new CountDownLatch(1);
    private final CompletableFuture<List<NodeAnswer>> answers = new CompletableFuture<>();
    /** Each node's fabric node id, set once by the listener before {@link #started} opens. */
    private volatile List<String> fabricNodes = List.of();

    RunningCase(ShuffleCase shuffleCase, ShuffleTuples.Expected expected, int caseId) {
        this.shuffleCase = shuffleCase;
        this.expected = expected;
        this.caseId = caseId;
    }

    public ShuffleCase shuffleCase() {
        return shuffleCase;
    }

    int caseId() {
        return caseId;
    }

    /** The round's answers, completed by the runner's round thread. */
    CompletableFuture<List<NodeAnswer>> answers() {
        return answers;
    }

    /** Every node contributed to the case's started exchange (values: fabric node ids, 16 hex digits). */
    void onStarted(byte[][] values) {
        List<String> ids = new ArrayList<>();
        for (byte[] value : values) {
            ids.add(new String(value, StandardCharsets.US_ASCII));
        }
        fabricNodes = List.copyOf(ids);
        started.countDown();
    }

    /** Waits until every node has opened its endpoints and starts moving data; false if not within {@code timeout}. */
    public boolean awaitStarted(Duration timeout) throws InterruptedException {
        return started.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Node {@code node}'s fabric node id (its files live in {@code faro-<id>}); known once the case started. */
    public String fabricNode(int node) {
        List<String> ids = fabricNodes;
        if (ids.isEmpty()) {
            throw new IllegalStateException(shuffleCase.label() + " has not started yet");
        }
        return ids.get(node);
    }

    /** Whether every node's outcome is in. */
    public boolean isDone() {
        return answers.isDone();
    }

    /** Waits for every node's outcome (at most until shortly after the deadline, or a replacement's cancel grace). */
    public CaseOutcome await() throws InterruptedException {
        List<NodeOutcome> outcomes = new ArrayList<>();
        try {
            for (NodeAnswer answer : answers.get()) {
                outcomes.add(outcome(answer));
            }
        } catch (ExecutionException e) {
            // the round could not start (no healthy worker for some node): every node failed with that
            String message = e.getCause().getMessage();
            long now = System.nanoTime();
            for (int node = 0; node < shuffleCase.nodes(); node++) {
                outcomes.add(new NodeOutcome.Failed(NodeOutcome.WORKER, message, now));
            }
        }
        return new CaseOutcome(shuffleCase, expected, outcomes);
    }

    private static NodeOutcome outcome(NodeAnswer answer) {
        if (answer.succeeded()) {
            String words = answer.reply().result().path("result").asText();
            return new NodeOutcome.Finished(NodeResult.decode(List.of(words.split(" "))), answer.atNanos());
        }
        ClusterException failure = answer.failure();
        String category = switch (failure.kind()) {
            case TASK_FAILED -> failure.category().name();
            case TIMEOUT -> NodeOutcome.DEADLINE;
            case WORKER_DIED, WORKER_UNRESPONSIVE, NODE_UNAVAILABLE, CLOSED -> NodeOutcome.WORKER;
        };
        return new NodeOutcome.Failed(category, failure.getMessage(), answer.atNanos());
    }
}
