package dev.faro.engine.operator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;

/**
 * Runs {@code task(0..threads-1)}, task 0 on the calling thread and the others on {@link EngineThreads}, and rethrows
 * the first failure. Coordination.
 */
public final class ParallelTasks {

    /** Below this many rows a sink's completion runs on its own thread: handing work out would cost more. */
    static final int PARALLEL_MIN_ROWS = 32_768;

    private ParallelTasks() {}

    /** How many of {@code threads} to use on {@code rows} rows: one below {@link #PARALLEL_MIN_ROWS}. */
    static int threadsFor(long rows, int threads) {
        return rows < PARALLEL_MIN_ROWS ? 1 : threads;
    }

    public static void run(int threads, String name, IntConsumer task) {
        if (threads <= 1) {
            task.accept(0);
            return;
        }
        Throwable[] failures = new Throwable[threads];
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int t = 1; t < threads; t++) {
            int index = t;
            running.add(EngineThreads.start(name + "-" + t, () -> {
                try {
                    task.accept(index);
                } catch (Throwable e) {
                    failures[index] = e;
                }
            }));
        }
        try {
            task.accept(0);
        } catch (Throwable e) {
            failures[0] = e;
        }
        for (CompletableFuture<Void> thread : running) {
            thread.join(); // the task catches its own failure
        }
        for (Throwable failure : failures) {
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failure instanceof Error error) {
                throw error;
            }
        }
    }
}
