package dev.faro.engine.operator;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The engine's platform threads, reused across pipelines and queries: a query of twenty pipelines would otherwise
 * start (and tear down) some forty threads, a fixed cost that shows on the 30 ms queries. Unbounded (a task never
 * waits for a free thread, so tasks may wait for each other); an idle thread ends after a minute. Daemon threads.
 * Coordination code.
 */
public final class EngineThreads {

    private static final ExecutorService POOL = Executors.newCachedThreadPool(
            Thread.ofPlatform().daemon().name("engine-", 0).factory());

    private EngineThreads() {}

    /**
     * Runs {@code task} on a pooled thread named {@code name} while it runs; the stage completes when it ends (with
     * its exception, if any). The thread's interrupt status does not outlive the task.
     */
    public static CompletableFuture<Void> start(String name, Runnable task) {
        return CompletableFuture.runAsync(
                () -> {
                    Thread thread = Thread.currentThread();
                    String idle = thread.getName();
                    thread.setName(name);
                    try {
                        task.run();
                    } finally {
                        thread.setName(idle);
                        Thread.interrupted();
                    }
                },
                POOL);
    }
}
