package dev.faro.shuffle.buffer;

import dev.faro.shuffle.buffer.BufferCounters.State;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A sending endpoint's buffers in circulation: borrowed from the node's {@link BufferPool}, free (WAIT), acquired
 * by a thread (POPULATE), or posted to one or more destinations (TRANSMIT) until every destination's completion has
 * come back. Implements ACQUIRE for a {@link BufferPolicy}:
 *
 * <ul>
 *   <li>fixed and bandwidth-delay policies borrow {@code perPeer × peers} buffers at the start and keep them;</li>
 *   <li>the adaptive policy (TODS19 §6.2, ADAPTIVEACQUIRE) starts with the initial depth; when a drain of the
 *       completion queue frees several buffers at once it keeps one and retires the others to the pool, and when
 *       nothing is free and nothing completes it borrows one more from the pool instead of waiting.</li>
 * </ul>
 *
 * <p>Thread-safe; data path allocation-free.
 */
public final class SendBuffers {

    /** Drains the endpoint's completion queue, calling {@link #completed} per finished send; returns completions. */
    @FunctionalInterface
    public interface Drainer {
        int drain();
    }

    private final BufferPool pool;
    private final BufferPolicy policy;
    private final int maximumBuffers;
    private final BufferCounters counters = new BufferCounters();
    private final ArrayBlockingQueue<ShuffleBuffer> free;
    private final AtomicIntegerArray pendingCompletions;
    private final AtomicLong circulating = new AtomicLong();
    /** Buffers that came back in the current drain; adaptive only (approximate under concurrency). */
    private final AtomicLong freedInDrain = new AtomicLong();

    public SendBuffers(BufferPool pool, BufferPolicy policy, int peers) {
        this.pool = pool;
        this.policy = policy;
        this.maximumBuffers = policy.maximumPerPeer() * peers;
        this.free = new ArrayBlockingQueue<>(Math.max(1, maximumBuffers));
        this.pendingCompletions = new AtomicIntegerArray(pool.maximumBuffers());
        for (int i = 0; i < policy.initialPerPeer() * peers; i++) {
            ShuffleBuffer buffer = pool.borrow();
            if (buffer == null) {
                throw new IllegalStateException("the buffer pool cannot lend the initial " + policy.initialPerPeer()
                        + " buffers per peer: pool maximum=" + pool.maximumBuffers());
            }
            circulating.incrementAndGet();
            counters.borrowed(State.WAIT);
            free.add(buffer);
        }
    }

    /** The buffer with this pool index (a request id). */
    public ShuffleBuffer buffer(int index) {
        return pool.buffer(index);
    }

    /**
     * ACQUIRE: a free buffer, draining completions while none is free; null if the caller should idle and retry.
     */
    public ShuffleBuffer tryAcquire(Drainer drainer) {
        ShuffleBuffer buffer = free.poll();
        if (buffer == null) {
            freedInDrain.set(0);
            if (drainer.drain() > 0 && policy.isAdaptive()) {
                retireSurplus();
            }
            buffer = free.poll();
            if (buffer == null && policy.isAdaptive()) {
                buffer = borrowWhenStarved();
                if (buffer != null) {
                    counters.move(State.WAIT, State.POPULATE);
                    buffer.payloadLength(0);
                    return buffer;
                }
            }
            if (buffer == null) {
                return null;
            }
        }
        counters.move(State.WAIT, State.POPULATE);
        buffer.payloadLength(0);
        return buffer;
    }

    private void retireSurplus() {
        long freed = freedInDrain.get();
        for (long i = 1; i < freed; i++) {
            ShuffleBuffer surplus = free.poll();
            if (surplus == null) {
                return;
            }
            circulating.decrementAndGet();
            counters.retired(State.WAIT);
            pool.giveBack(surplus);
        }
    }

    private ShuffleBuffer borrowWhenStarved() {
        if (circulating.get() >= maximumBuffers) {
            return null;
        }
        ShuffleBuffer buffer = pool.borrow();
        if (buffer != null) {
            circulating.incrementAndGet();
            counters.borrowed(State.WAIT);
        }
        return buffer;
    }

    /** PUTDATA: the buffer goes to {@code destinations} destinations; each must complete before it is free. */
    public void transmitting(ShuffleBuffer buffer, int destinations) {
        counters.move(State.POPULATE, State.TRANSMIT);
        pendingCompletions.set(buffer.index(), destinations);
        if (destinations == 0) {
            makeFree(buffer);
        }
    }

    /** One destination's send of buffer {@code index} completed. */
    public void completed(int index) {
        if (pendingCompletions.decrementAndGet(index) == 0) {
            makeFree(pool.buffer(index));
        }
    }

    private void makeFree(ShuffleBuffer buffer) {
        counters.move(State.TRANSMIT, State.WAIT);
        freedInDrain.incrementAndGet();
        free.add(buffer);
    }

    /** Whether every buffer in circulation is free again (nothing in flight, nothing being filled). */
    public boolean allFree() {
        return free.size() == circulating.get();
    }

    public BufferCounters counters() {
        return counters;
    }

    /** Gives every buffer back to the pool; call once nothing is in flight. */
    public void close() {
        ShuffleBuffer buffer;
        while ((buffer = free.poll()) != null) {
            circulating.decrementAndGet();
            counters.retired(State.WAIT);
            pool.giveBack(buffer);
        }
    }
}
