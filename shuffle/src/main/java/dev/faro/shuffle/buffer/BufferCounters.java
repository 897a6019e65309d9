package dev.faro.shuffle.buffer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many of an endpoint's buffers are in each state of TODS19 Fig. 12, and how often the adaptive policy changed
 * the circulation. Sender: WAIT (free at the endpoint), POPULATE (acquired by a thread), TRANSMIT (posted, not yet
 * completed). Receiver: TRANSMIT (posted for receiving), READY (arrived, not yet handed out), CONSUME (handed out,
 * not yet released). Counts are approximate while threads run.
 */
public final class BufferCounters {

    /** The states of Fig. 12, plus READY on the receive side (arrived, waiting for a consumer). */
    public enum State {
        WAIT,
        POPULATE,
        TRANSMIT,
        READY,
        CONSUME
    }

    private final AtomicLong[] inState = new AtomicLong[State.values().length];
    private final AtomicLong borrowed = new AtomicLong();
    private final AtomicLong retired = new AtomicLong();

    public BufferCounters() {
        for (int i = 0; i < inState.length; i++) {
            inState[i] = new AtomicLong();
        }
    }

    /** Moves one buffer from {@code from} to {@code to} (either may be null: entering or leaving circulation). */
    public void move(State from, State to) {
        if (from != null) {
            inState[from.ordinal()].decrementAndGet();
        }
        if (to != null) {
            inState[to.ordinal()].incrementAndGet();
        }
    }

    /** A buffer borrowed from the pool into circulation. */
    public void borrowed(State into) {
        borrowed.incrementAndGet();
        move(null, into);
    }

    /** A buffer retired from circulation back to the pool. */
    public void retired(State from) {
        retired.incrementAndGet();
        move(from, null);
    }

    public long count(State state) {
        return inState[state.ordinal()].get();
    }

    public long borrowed() {
        return borrowed.get();
    }

    public long retired() {
        return retired.get();
    }

    /** In circulation: the sum over all states. */
    public long circulating() {
        long sum = 0;
        for (AtomicLong count : inState) {
            sum += count.get();
        }
        return sum;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("BufferCounters[");
        for (State state : State.values()) {
            text.append(state).append('=').append(count(state)).append(", ");
        }
        return text.append("borrowed=")
                .append(borrowed())
                .append(", retired=")
                .append(retired())
                .append(']')
                .toString();
    }
}
