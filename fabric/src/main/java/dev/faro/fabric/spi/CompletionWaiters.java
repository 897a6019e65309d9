package dev.faro.fabric.spi;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.WorkCompletion;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads blocked in a completion queue's event-mode wait ({@link CompletionQueue#await}), and how a producer wakes
 * them without taking a lock. A provider's progress thread plays the NIC: it must never wait for an application
 * thread. With a monitor it would, whenever the waiter holding it was descheduled between its last poll and its wait
 * (on a 2-core host running four busy threads, often). For providers; thread-safe, allocation-free.
 *
 * <pre>
 *  waiter                                   producer
 *   register (CAS a slot, count++: fences)   publish the completion
 *   poll: found? deregister, return          full fence
 *   park (an earlier unpark returns at once) count &gt; 0? unpark every registered thread
 * </pre>
 * Either the waiter's poll sees the completion or the producer sees the waiter (each writes, fences, then reads what
 * the other wrote). Up to {@link #SLOTS} threads register at once; further ones nap {@link #NAP_NANOS} at a time and
 * poll again, so they are never lost, only slower.
 */
public final class CompletionWaiters {

    static final int SLOTS = 8;
    static final long NAP_NANOS = 50_000;

    private final AtomicReferenceArray<Thread> slots = new AtomicReferenceArray<>(SLOTS);
    private final AtomicInteger registered = new AtomicInteger();

    /** Registers the calling thread before its poll; returns its slot, or -1 if every slot is taken (it naps). */
    int register() {
        Thread current = Thread.currentThread();
        for (int i = 0; i < SLOTS; i++) {
            if (slots.get(i) == null && slots.compareAndSet(i, null, current)) {
                registered.incrementAndGet();
                return i;
            }
        }
        return -1;
    }

    /**
     * A provider's {@link CompletionQueue#await}: polls {@code queue} for up to {@code spinNanos}, then registers and
     * parks between polls until a completion is there or the timeout passes (0 then, also when interrupted, with the
     * interrupt kept). The queue's producers call {@link #wakeAll} after publishing; its close must too.
     */
    public int await(CompletionQueue queue, WorkCompletion[] completions, long timeout, TimeUnit unit, long spinNanos) {
        long startNs = System.nanoTime();
        long deadlineNs = startNs + unit.toNanos(timeout);
        long spinUntilNs = startNs + Math.min(spinNanos, unit.toNanos(timeout));
        while (true) {
            int count = queue.poll(completions);
            if (count > 0) {
                return count;
            }
            long nowNs = System.nanoTime();
            if (nowNs - deadlineNs >= 0) {
                return 0;
            }
            if (nowNs - spinUntilNs >= 0) {
                break;
            }
            Thread.onSpinWait();
        }
        int slot = register();
        try {
            while (true) {
                int count = queue.poll(completions); // throws CLOSED once the queue closes
                if (count > 0) {
                    return count;
                }
                long leftNs = deadlineNs - System.nanoTime();
                if (leftNs <= 0 || Thread.currentThread().isInterrupted()) {
                    return 0;
                }
                park(slot, leftNs);
            }
        } finally {
            deregister(slot);
        }
    }

    /** Gives the slot {@link #register} returned back (nothing for -1). */
    void deregister(int slot) {
        if (slot >= 0) {
            slots.set(slot, null);
            registered.decrementAndGet();
        }
    }

    /** Blocks the registered caller until a producer wakes it, at most {@code leftNanos} (a nap without a slot). */
    void park(int slot, long leftNanos) {
        LockSupport.parkNanos(this, slot >= 0 ? leftNanos : Math.min(leftNanos, NAP_NANOS));
    }

    /** After a completion is published and a full fence: wakes every registered waiter. Never blocks. */
    public void wakeAll() {
        if (registered.get() == 0) {
            return;
        }
        for (int i = 0; i < SLOTS; i++) {
            Thread waiter = slots.get(i);
            if (waiter != null) {
                LockSupport.unpark(waiter);
            }
        }
    }
}
