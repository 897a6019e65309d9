package dev.faro.join;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one phase's body on {@code threads} platform threads and waits for them; the first failure is rethrown
 * (later ones suppressed). Coordination code.
 */
public final class Workers {

    /** One thread's part of a phase. */
    @FunctionalInterface
    public interface Body {
        void run(int thread) throws Exception;
    }

    private Workers() {}

    public static void run(String name, int threads, Body body) {
        if (threads == 1) {
            try {
                body.run(0);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return;
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int thread = t;
            workers[t] = Thread.ofPlatform().name(name + "-" + t).unstarted(() -> {
                try {
                    body.run(thread);
                } catch (Throwable e) {
                    if (!failure.compareAndSet(null, e)) {
                        failure.get().addSuppressed(e);
                    }
                }
            });
            workers[t].start();
        }
        boolean interrupted = false;
        for (Thread worker : workers) {
            while (true) {
                try {
                    worker.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the workers end by their own waits' cancellation checks
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable first = failure.get();
        if (first instanceof RuntimeException e) {
            throw e;
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw new IllegalStateException(first);
        }
    }
}
