package dev.faro.engine.operator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/** Runs {@code task(0..threads-1)} on short-lived platform threads and rethrows the first failure. Coordination. */
public final class ParallelTasks {

    private ParallelTasks() {}

    public static void run(int threads, String name, IntConsumer task) {
        if (threads <= 1) {
            task.accept(0);
            return;
        }
        Throwable[] failures = new Throwable[threads];
        List<Thread> running = new ArrayList<>();
        for (int t = 1; t < threads; t++) {
            int index = t;
            running.add(Thread.ofPlatform().daemon().name(name + "-" + t).start(() -> {
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
        for (Thread thread : running) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name, e);
            }
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
