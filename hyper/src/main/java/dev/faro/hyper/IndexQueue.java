package dev.faro.hyper;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A bounded many-to-many FIFO of {@code int}s (message indexes and end markers): the multiplexer's send queues
 * (many sending workers, the network thread) and the exchanges' receive queues (the network thread and own-node
 * senders, many consuming workers). D. Vyukov's bounded MPMC queue: every slot carries a sequence number, a producer
 * claims a tail position by compare-and-set, writes the value and publishes the slot by releasing its sequence; a
 * consumer does the same at the head.
 *
 * <pre>
 *  slot i:  sequence (long, release/acquire)  value (int, plain; ordered by the sequence)
 *  empty for position p: sequence == p        full for position p: sequence == p + 1
 *  after a take at p:    sequence == p + capacity (the slot is empty for the next lap)
 * </pre>
 *
 * <p>Thread-safe, lock-free. Data path: allocation-free. The capacity is a power of two.
 */
final class IndexQueue {

    private final int mask;
    private final int[] values;
    private final AtomicLongArray sequences;
    private final AtomicLong tail = new AtomicLong();
    private final AtomicLong head = new AtomicLong();

    /** A queue holding at least {@code minimumCapacity} values (rounded up to a power of two). */
    IndexQueue(int minimumCapacity) {
        if (minimumCapacity < 1 || minimumCapacity > 1 << 28) {
            throw new IllegalArgumentException("capacity out of range: minimumCapacity=" + minimumCapacity);
        }
        int capacity = 1;
        while (capacity < minimumCapacity) {
            capacity <<= 1;
        }
        this.mask = capacity - 1;
        this.values = new int[capacity];
        this.sequences = new AtomicLongArray(capacity);
        for (int i = 0; i < capacity; i++) {
            sequences.set(i, i);
        }
    }

    int capacity() {
        return mask + 1;
    }

    /** Appends {@code value}; false when the queue is full. */
    boolean offer(int value) {
        while (true) {
            long position = tail.get();
            int slot = (int) position & mask;
            long sequence = sequences.getAcquire(slot);
            long difference = sequence - position;
            if (difference == 0) {
                if (tail.compareAndSet(position, position + 1)) {
                    values[slot] = value;
                    sequences.setRelease(slot, position + 1);
                    return true;
                }
            } else if (difference < 0) {
                return false;
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** Removes and returns the oldest value, or {@code empty} when there is none. */
    int poll(int empty) {
        while (true) {
            long position = head.get();
            int slot = (int) position & mask;
            long sequence = sequences.getAcquire(slot);
            long difference = sequence - (position + 1);
            if (difference == 0) {
                if (head.compareAndSet(position, position + 1)) {
                    int value = values[slot];
                    sequences.setRelease(slot, position + mask + 1);
                    return value;
                }
            } else if (difference < 0) {
                return empty;
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** The oldest value without removing it, or {@code empty}: only for a single consumer (the network thread). */
    int peek(int empty) {
        long position = head.get();
        int slot = (int) position & mask;
        return sequences.getAcquire(slot) == position + 1 ? values[slot] : empty;
    }

    /** Whether the queue looks empty (approximate while others offer or poll). */
    boolean unsynchronizedIsEmpty() {
        return head.get() >= tail.get();
    }

    /** Values held now (approximate while others offer or poll; exact when the queue is idle). */
    int unsynchronizedSize() {
        return (int) Math.max(0, tail.get() - head.get());
    }
}
