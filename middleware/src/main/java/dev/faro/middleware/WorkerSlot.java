package dev.faro.middleware;

import java.nio.channels.Selector;
import java.util.concurrent.locks.LockSupport;

/**
 * The thread currently acting as one local worker, so the network thread and same-process peers can wake it when
 * data arrives or space frees. The worker registers itself on each blocking call. A worker that waits in a
 * {@link Selector} (the NIO baseline) attaches it, and a wake then also wakes the selector.
 */
final class WorkerSlot {

    /** Written by the worker thread; read by waking threads. */
    private volatile Thread thread;

    /** The selector the worker waits in, else null; set once before the worker runs. */
    private volatile Selector selector;

    void attach(Selector waitsIn) {
        selector = waitsIn;
    }

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
        Selector waitsIn = selector;
        if (waitsIn != null) {
            waitsIn.wakeup();
        }
    }
}
