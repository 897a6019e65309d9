package dev.faro.engine.exec;

import dev.faro.engine.operator.Operator;
import dev.faro.engine.operator.OperatorFactory;
import dev.faro.shuffle.endpoint.ProgressSignal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one node's pipelines of a query, {@code threads} drivers per pipeline, on a {@link DriverRunner} (at most
 * {@code driverThreads} threads at once, or one per runnable driver): a driver blocked on an exchange yields its
 * thread to the others. Pipelines start in
 * plan order; a pipeline starts once the pipelines it reads from have completed and every earlier breaker pipeline
 * (one not feeding an exchange) has completed, so breakers run one after another as in a single-node plan and their
 * memory does not add up. A pipeline feeding an exchange does not hold back the next ones: it streams while the
 * pipelines after it run, up to the exchange's consuming pipeline, whose drivers take the buffers as they arrive.
 * A pipeline also waits until the exchanges it sends to or receives from are open ({@link ExchangeOpener} opens them
 * meanwhile, in plan order, on a thread of its own). Deadlock-free: every pipeline waits only for pipelines before it,
 * each of which has started, and for opens, which wait for nothing the pipelines do.
 *
 * <p>When a pipeline's last driver ends, that thread completes the pipeline's sink (merging the threads' state, e.g.
 * building a join's hash table); while a sink completes, the conductor (the thread calling {@link #run}) advances the
 * progress signal, so that a producer waiting for credit meanwhile is not taken for a stall: the node is busy. The
 * first failure of any thread wins; the conductor then starts nothing more. Coordination code.
 */
final class PipelineScheduler {

    private static final long POLL_MILLIS = 20;
    /** Put in {@link #ended} when an exchange opened: not a pipeline, a wake-up for {@link #run}. */
    private static final int EXCHANGE_OPENED = -1;

    private final List<Pipeline> pipelines;
    private final int sinkThreads;
    private final QueryFailure failure;
    private final ProgressSignal progress;
    private final boolean[] completed;
    private final long[] startNanos;
    private final List<CompletableFuture<Void>> drivers = new ArrayList<>();
    private final LinkedBlockingQueue<Integer> ended = new LinkedBlockingQueue<>();
    private final List<PipelineStatistics> statistics = java.util.Collections.synchronizedList(new ArrayList<>());
    /** Sinks completing now (written by the last driver of each pipeline, read by the conductor). */
    private final AtomicInteger completing = new AtomicInteger();

    private final DriverRunner runner;

    private int running;

    /** @param driverThreads the most drivers running at once (0: one thread per runnable driver) */
    PipelineScheduler(
            List<Pipeline> pipelines,
            int sinkThreads,
            int driverThreads,
            QueryFailure failure,
            ProgressSignal progress) {
        this.runner = new DriverRunner(driverThreads, failure);
        this.pipelines = List.copyOf(pipelines);
        this.sinkThreads = sinkThreads;
        this.failure = failure;
        this.progress = progress;
        this.completed = new boolean[pipelines.size()];
        this.startNanos = new long[pipelines.size()];
    }

    /** Runs every pipeline to completion; throws the first failure's consequence when the query fails. */
    void run() throws InterruptedException {
        for (Pipeline pipeline : pipelines) {
            while (!ready(pipeline)) {
                awaitEnd();
            }
            failure.check();
            start(pipeline);
        }
        while (running > 0) {
            awaitEnd();
        }
    }

    /** Says that an exchange has opened (any thread): a pipeline waiting for it may start. */
    void exchangeOpened() {
        ended.add(EXCHANGE_OPENED);
    }

    private boolean ready(Pipeline pipeline) {
        for (var exchange : pipeline.exchanges()) {
            if (!exchange.isOpened()) {
                return false;
            }
        }
        for (int after : pipeline.after()) {
            if (!completed[after]) {
                return false;
            }
        }
        for (int earlier = 0; earlier < pipeline.id(); earlier++) {
            if (pipelines.get(earlier).sendsTo() == null && !completed[earlier]) {
                return false;
            }
        }
        return true;
    }

    private void start(Pipeline pipeline) {
        startNanos[pipeline.id()] = System.nanoTime();
        AtomicInteger left = new AtomicInteger(pipeline.threads());
        running++;
        for (int t = 0; t < pipeline.threads(); t++) {
            int thread = t;
            drivers.add(runner.submit(
                    "pipeline-" + pipeline.id() + "-" + t,
                    () -> {
                        List<Operator> operators = new ArrayList<>();
                        for (OperatorFactory factory : pipeline.operators()) {
                            operators.add(factory.create(thread));
                        }
                        operators.add(pipeline.sink().create(thread));
                        return new Driver(operators, failure, progress);
                    },
                    () -> {
                        if (left.decrementAndGet() == 0) {
                            complete(pipeline);
                        }
                    }));
        }
    }

    /** Completes {@code pipeline}'s sink unless the query failed; on the pipeline's last driver thread. */
    private void complete(Pipeline pipeline) {
        completing.incrementAndGet();
        try {
            if (!failure.failed()) {
                pipeline.sink().complete(sinkThreads);
                long nanos = System.nanoTime() - startNanos[pipeline.id()];
                statistics.add(
                        new PipelineStatistics(pipeline.id(), pipeline.description(), pipeline.threads(), nanos));
                if (pipeline.sendsTo() != null) {
                    pipeline.sendsTo().recordSendNanos(nanos);
                }
            }
        } catch (Throwable e) {
            failure.fail(e);
        } finally {
            completing.decrementAndGet();
            ended.add(pipeline.id());
        }
    }

    /** Waits for a pipeline to end; throws when the query failed meanwhile. */
    private void awaitEnd() throws InterruptedException {
        Integer id = ended.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
        if (completing.get() > 0) {
            progress.advance(); // a sink is merging its threads' state: busy, not stalled
        }
        if (failure.failed()) {
            runner.abandonBlocked();
        }
        failure.check();
        if (id == null || id == EXCHANGE_OPENED) {
            return;
        }
        running--;
        completed[id] = true;
    }

    /** Waits up to {@code bound} for every started driver to end; returns whether they all have. */
    boolean awaitStopped(Duration bound) throws InterruptedException {
        if (failure.failed()) {
            runner.abandonBlocked();
        }
        try {
            CompletableFuture.allOf(drivers.toArray(new CompletableFuture<?>[0]))
                    .get(bound.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true; // a driver catches its own failures: ended all the same
        }
    }

    /** Each completed pipeline's run, by pipeline. */
    List<PipelineStatistics> statistics() {
        List<PipelineStatistics> sorted;
        synchronized (statistics) {
            sorted = new ArrayList<>(statistics);
        }
        sorted.sort((a, b) -> Integer.compare(a.pipeline(), b.pipeline()));
        return sorted;
    }
}
