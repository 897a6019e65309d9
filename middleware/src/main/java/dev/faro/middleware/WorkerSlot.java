package dev.faro.middleware;

import java.util.concurrent.locks.LockSupport;

/**
 * The thread currently acting as one local worker, so the network thread and same-process peers can wake it when
 * data arrives or space frees. The worker registers itself on each blocking call.
 */
final class WorkerSlot {

    /** Written by the worker thread; read by waking threads. */
    private volatile Thread thread;

    void register() {
        Thread current = Thread.currentThread();
        if (thread != current) {
            thread = current;
        }
    }

    void wake() {
        Thread waiting = thread;
        if (waiting != null) {
            LockSupport.unpark(waiting);
        }
    }
}
