package dev.faro.txn.node;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs one body per agent on its own thread and waits for all, failing with the first failure (tests). */
final class AgentThreads {

    /** The work of one agent. */
    @FunctionalInterface
    interface Body {
        void run(TransactionAgent agent) throws Exception;
    }

    private AgentThreads() {}

    static void runAll(List<TransactionAgent> agents, Body body) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(agents.size());
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (TransactionAgent agent : agents) {
                futures.add(executor.submit(() -> {
                    body.run(agent);
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                try {
                    future.get(120, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Exception cause) {
                        throw cause;
                    }
                    throw e;
                } catch (TimeoutException e) {
                    throw new AssertionError("an agent did not finish within 120 s", e);
                }
            }
        } finally {
            executor.shutdownNow();
        }
    }
}
