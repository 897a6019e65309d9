package dev.faro.shuffle.transport;

import dev.faro.shuffle.endpoint.WaitLoop;

/**
 * A polled receiver's one waiting step, tried both by its owner's non-blocking poll and by the {@link
 * ReadinessPoller}'s retry of the owner's wait: what a retry found is kept and handed to the next poll, which
 * otherwise tries the step itself. The poller retries only while the owner waits on its stage, and completing the
 * stage orders the retry before the owner's next poll, so the kept result needs no synchronization. Data path:
 * allocation-free.
 */
public final class PolledStep {

    private final WaitLoop waits;
    private final WaitLoop.Step step;
    /** What the last successful retry found, for the next poll; {@link WaitLoop#IDLE}: nothing. */
    private int found = WaitLoop.IDLE;

    public PolledStep(WaitLoop waits, WaitLoop.Step step) {
        this.waits = waits;
        this.step = step;
    }

    /** What a retry found, else one try of the step ({@link WaitLoop#attempt}); {@link WaitLoop#IDLE}: nothing yet. */
    public int poll() {
        int result = found;
        if (result != WaitLoop.IDLE) {
            found = WaitLoop.IDLE;
            return result;
        }
        return waits.attempt(step, 0);
    }

    /** The poller's try: true when the step found something, which the next {@link #poll} returns. */
    public boolean retry() {
        int result = waits.attempt(step, 0);
        if (result == WaitLoop.IDLE) {
            return false;
        }
        found = result;
        return true;
    }
}
