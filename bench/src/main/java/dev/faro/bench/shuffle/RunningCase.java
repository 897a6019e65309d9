package dev.faro.bench.shuffle;

import dev.faro.bench.process.WorkerFailedException;
import dev.faro.bench.process.WorkerProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * A case the cluster has launched: one driver thread per node sends {@code CASE}, then polls the worker with
 * {@code NEXT}, relays exchanges between the nodes ({@link GatherRound}) and collects the node's outcome. The first
 * failure abandons the case: nodes waiting in an exchange are told to give up ({@code ABANDON}), nodes already moving
 * data end by themselves (their endpoints see the failure or stall). Every driver stops at the case's deadline, so
 * {@link #await()} always returns.
 *
 * <p>Coordination code. Each driver is the only thread talking to its worker while the case runs.
 */
public final class RunningCase {

    /** How long one NEXT waits in the worker for an event. */
    static final Duration POLL = Duration.ofMillis(200);

    /** How long a control command (CASE, GATHERED, ABANDON) or a NEXT beyond its poll may take to be answered. */
    static final Duration CONTROL_TIMEOUT = Duration.ofSeconds(30);

    private final ShuffleCase shuffleCase;
    private final ShuffleTuples.Expected expected;
    private final int caseId;
    private final Duration deadline;
    private final long deadlineNanos;
    private final IntConsumer brokenWorker;
    private final Map<String, GatherRound> rounds = new ConcurrentHashMap<>();
    private final CountDownLatch started;
    private final AtomicReference<String> abandonReason = new AtomicReference<>();
    private final List<Future<NodeOutcome>> drivers = new ArrayList<>();

    RunningCase(ShuffleCase shuffleCase, ShuffleTuples.Expected expected, int caseId, Duration deadline,
            IntConsumer brokenWorker) {
        this.shuffleCase = shuffleCase;
        this.expected = expected;
        this.caseId = caseId;
        this.deadline = deadline;
        this.deadlineNanos = System.nanoTime() + deadline.toNanos();
        this.brokenWorker = brokenWorker;
        this.started = new CountDownLatch(shuffleCase.nodes());
    }

    /** Starts one driver per node; worker {@code i} plays node {@code i}. */
    void start(List<WorkerProcess> workers, ExecutorService executor) {
        for (int node = 0; node < shuffleCase.nodes(); node++) {
            int self = node;
            WorkerProcess worker = workers.get(node);
            drivers.add(executor.submit(() -> drive(self, worker)));
        }
    }

    public ShuffleCase shuffleCase() {
        return shuffleCase;
    }

    /** Waits until every node has opened its endpoints and started moving data; false if that did not happen in time. */
    public boolean awaitStarted(Duration timeout) throws InterruptedException {
        return started.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Whether every node's outcome is in. */
    public boolean isDone() {
        return drivers.stream().allMatch(Future::isDone);
    }

    /** Waits for every node's outcome (at most until shortly after the deadline). */
    public CaseOutcome await() throws InterruptedException {
        List<NodeOutcome> outcomes = new ArrayList<>();
        for (Future<NodeOutcome> driver : drivers) {
            try {
                outcomes.add(driver.get());
            } catch (ExecutionException e) {
                throw new IllegalStateException("driver of " + shuffleCase.label() + " failed", e.getCause());
            }
        }
        return new CaseOutcome(shuffleCase, expected, outcomes);
    }

    private NodeOutcome drive(int node, WorkerProcess worker) {
        try {
            worker.request(ShuffleWorker.CASE + " " + caseId + " " + node + " " + shuffleCase.encode(),
                    CONTROL_TIMEOUT);
            while (true) {
                if (System.nanoTime() - deadlineNanos > 0) {
                    brokenWorker.accept(node);
                    String message = "node " + node + " (" + worker.name() + ") did not finish " + shuffleCase.label()
                            + " within " + deadline.toSeconds() + " s";
                    abandon(message);
                    return new NodeOutcome.Failed(NodeOutcome.DEADLINE, message, System.nanoTime());
                }
                String reply = worker.request(ShuffleWorker.NEXT + " " + POLL.toMillis(), POLL.plus(CONTROL_TIMEOUT));
                long now = System.nanoTime();
                int space = reply.indexOf(' ');
                String event = space < 0 ? reply : reply.substring(0, space);
                String rest = space < 0 ? "" : reply.substring(space + 1);
                switch (event) {
                    case ShuffleWorker.RUNNING -> {
                        // nothing new yet
                    }
                    case ShuffleWorker.STARTED -> started.countDown();
                    case ShuffleWorker.GATHER -> relay(node, worker, rest);
                    case ShuffleWorker.DONE -> {
                        return new NodeOutcome.Finished(NodeResult.decode(List.of(rest.split(" "))), now);
                    }
                    case ShuffleWorker.FAILED -> {
                        int split = rest.indexOf(' ');
                        String category = split < 0 ? rest : rest.substring(0, split);
                        String message = split < 0 ? "" : rest.substring(split + 1);
                        abandon("node " + node + " failed: " + message);
                        return new NodeOutcome.Failed(category, message, now);
                    }
                    default -> throw new IllegalStateException("worker " + worker.name() + " sent an unknown event: '"
                            + reply + "'");
                }
            }
        } catch (WorkerFailedException | IllegalStateException | IllegalArgumentException e) {
            long now = System.nanoTime();
            brokenWorker.accept(node);
            abandon("node " + node + " (" + worker.name() + ") failed: " + e.getMessage());
            return new NodeOutcome.Failed(NodeOutcome.WORKER, e.getMessage(), now);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            brokenWorker.accept(node);
            abandon("interrupted");
            return new NodeOutcome.Failed(NodeOutcome.WORKER, "interrupted", System.nanoTime());
        }
    }

    private void relay(int node, WorkerProcess worker, String event) throws InterruptedException {
        String[] parts = event.split(" ");
        if (parts.length != 2) {
            throw new IllegalStateException("malformed GATHER from " + worker.name() + ": '" + event + "'");
        }
        String key = parts[0];
        GatherRound round = rounds.computeIfAbsent(key, k -> new GatherRound(k, shuffleCase.nodes()));
        round.contribute(node, parts[1]);
        String[] all = round.await(deadlineNanos, () -> abandonReason.get() != null);
        if (all != null) {
            worker.request(ShuffleWorker.GATHERED + " " + key + " " + String.join(" ", all), CONTROL_TIMEOUT);
        } else {
            String reason = abandonReason.get();
            worker.request(ShuffleWorker.ABANDON + " "
                    + (reason != null ? reason : "the case's deadline passed during exchange " + key)
                            .replaceAll("\\s+", " "),
                    CONTROL_TIMEOUT);
        }
    }

    /** Gives up on the case (first reason wins) and wakes every driver waiting in an exchange. */
    private void abandon(String reason) {
        if (abandonReason.compareAndSet(null, reason)) {
            rounds.values().forEach(GatherRound::wake);
        }
    }
}
