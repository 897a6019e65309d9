package dev.faro.engine.exec;

import dev.faro.engine.operator.EngineThreads;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Runs one node's drivers of one query on at most {@code threads} threads at once (Trino's task executor, without
 * time slices): a thread takes a runnable driver and {@link Driver#process processes} it until it finishes or
 * blocks; a blocked driver gives its thread back and becomes runnable again when its stage completes (completed by
 * whatever makes progress: the transport's readiness poller for an exchange). So a node may run more drivers than it
 * has threads, and a driver waiting for buffers, credit or data costs no thread. With {@code threads} 0 every runnable
 * driver gets a thread of its own, as many as there are. Threads are the engine's pooled ones ({@link
 * EngineThreads}).
 *
 * <p>When the query fails, {@link #abandonBlocked} ends the blocked drivers without running them again (their stages
 * may never complete: a peer stopped). Coordination code; thread-safe.
 */
final class DriverRunner {

    private final int threads;
    private final QueryFailure failure;
    private final ConcurrentLinkedQueue<Task> runnable = new ConcurrentLinkedQueue<>();
    private final AtomicInteger workers = new AtomicInteger();
    private final Set<Task> blocked = ConcurrentHashMap.newKeySet();

    /** @param threads the most drivers running at once; 0: no bound */
    DriverRunner(int threads, QueryFailure failure) {
        if (threads < 0) {
            throw new IllegalArgumentException("threads must not be negative: threads=" + threads);
        }
        this.threads = threads;
        this.failure = failure;
    }

    /**
     * Runs the driver {@code create} makes (on its first run, on a runner thread); {@code onEnd} runs on the thread
     * where the driver ended (finished, failed or abandoned). The stage completes after {@code onEnd}.
     */
    CompletableFuture<Void> submit(String name, Supplier<Driver> create, Runnable onEnd) {
        Task task = new Task(name, create, onEnd);
        enqueue(task);
        return task.done;
    }

    /** Ends every blocked driver at once (the query failed): they are not run again. */
    void abandonBlocked() {
        for (Task task : blocked) {
            if (blocked.remove(task)) {
                end(task);
            }
        }
    }

    private void enqueue(Task task) {
        runnable.add(task);
        startWorkerIfNeeded();
    }

    private void startWorkerIfNeeded() {
        while (!runnable.isEmpty()) {
            int running = workers.get();
            if (threads > 0 && running >= threads) {
                return; // a running worker takes it (one about to stop looks again, see work)
            }
            if (workers.compareAndSet(running, running + 1)) {
                EngineThreads.start("drivers", this::work);
                return;
            }
        }
    }

    private void work() {
        try {
            Task task;
            while ((task = runnable.poll()) != null) {
                run(task);
            }
        } finally {
            workers.decrementAndGet();
            startWorkerIfNeeded(); // a driver made runnable after this worker's last poll
        }
    }

    private void run(Task task) {
        Thread thread = Thread.currentThread();
        String idle = thread.getName();
        thread.setName(task.name);
        try {
            if (task.driver == null) {
                task.driver = task.create.get();
            }
            CompletionStage<Void> stage = task.driver.process();
            if (stage == null) {
                end(task);
                return;
            }
            blocked.add(task);
            stage.whenComplete((ignored, error) -> {
                if (blocked.remove(task)) {
                    enqueue(task);
                }
            });
            if (failure.failed()) {
                abandonBlocked();
            }
        } catch (Throwable e) {
            failure.fail(e);
            end(task);
        } finally {
            thread.setName(idle);
        }
    }

    private static void end(Task task) {
        try {
            task.onEnd.run();
        } finally {
            task.done.complete(null);
        }
    }

    private static final class Task {
        final String name;
        final Supplier<Driver> create;
        final Runnable onEnd;
        final CompletableFuture<Void> done = new CompletableFuture<>();
        Driver driver;

        Task(String name, Supplier<Driver> create, Runnable onEnd) {
            this.name = name;
            this.create = create;
            this.onEnd = onEnd;
        }
    }
}
