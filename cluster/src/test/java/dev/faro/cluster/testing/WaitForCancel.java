package dev.faro.cluster.testing;

import dev.faro.cluster.worker.WorkerContext;

/** Blocks a test task until it is cancelled (then throws), for at most 60 s. */
final class WaitForCancel {

    private WaitForCancel() {}

    static void await(WorkerContext context) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!context.isCancelled() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                // the cancel interrupts us; the flag below says so
            }
        }
        context.throwIfCancelled();
    }
}
