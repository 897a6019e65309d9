package dev.faro.middleware.exchange;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bounded single-producer single-consumer queue of references: a power-of-two array and two absolute positions,
 * each published with release and read with acquire, so what the producer wrote into an element before
 * {@link #offer} is visible to the consumer after {@link #poll}. Lock-free and allocation-free.
 *
 * @param <T> the element type
 */
final class HandoffQueue<T> {

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(HandoffQueue.class, "head", long.class);
            TAIL = lookup.findVarHandle(HandoffQueue.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object[] elements;
    private final int mask;
    /** Consumer: the next position to take. */
    private long head;
    /** Producer: the next position to fill. */
    private long tail;

    HandoffQueue(int capacity) {
        if (capacity < 1 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        this.elements = new Object[capacity];
        this.mask = capacity - 1;
    }

    /** Producer only: appends {@code element}; false when the queue is full. */
    boolean offer(T element) {
        long position = tail;
        if (position - (long) HEAD.getAcquire(this) == elements.length) {
            return false;
        }
        elements[(int) position & mask] = element;
        TAIL.setRelease(this, position + 1);
        return true;
    }

    /** Consumer only: the oldest element, or null when the queue is empty. */
    @SuppressWarnings("unchecked")
    T poll() {
        long position = head;
        if (position == (long) TAIL.getAcquire(this)) {
            return null;
        }
        int index = (int) position & mask;
        T element = (T) elements[index];
        elements[index] = null;
        HEAD.setRelease(this, position + 1);
        return element;
    }

    /** Whether the queue looks empty (exact for the consumer). */
    boolean isEmpty() {
        return head == (long) TAIL.getAcquire(this);
    }
}
