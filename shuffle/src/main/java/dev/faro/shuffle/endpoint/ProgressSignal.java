package dev.faro.shuffle.endpoint;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one node knows about progress anywhere in its query: a count of its own progress (batches moved by its
 * drivers and receivers) and the latest cluster progress epoch a supervisor relayed to it (the coordinator's
 * heartbeat: it changes whenever any node reported progress). A {@link WaitLoop} that sees neither change for its
 * stall timeout reports a stall; one that sees either change starts its window again. So an exchange that waits for a
 * peer still busy computing the pipeline that will feed it is not a stall, but an exchange where nothing moves on any
 * node is one, within the stall timeout.
 *
 * <p>Threads: any thread {@link #advance}s (one atomic add per batch, allocation-free); the heartbeat thread calls
 * {@link #remoteAdvanced}; wait loops read {@link #snapshot} (approximate: only whether it changed matters).
 */
public final class ProgressSignal {

    /** The signal of endpoints outside a query: never changes, so only a wait's own progress counts. */
    public static final ProgressSignal NONE = new ProgressSignal(false);

    private final boolean enabled;
    private final AtomicLong local = new AtomicLong();
    /** Written by the heartbeat thread; only increases. */
    private volatile long remote;

    /** A signal to advance and relay progress into. */
    public ProgressSignal() {
        this(true);
    }

    private ProgressSignal(boolean enabled) {
        this.enabled = enabled;
    }

    /** Notes local progress. Data path: allocation-free. */
    public void advance() {
        if (enabled) {
            local.getAndIncrement();
        }
    }

    /** This node's own progress count, for reporting to the supervisor (never the relayed part). */
    public long local() {
        return local.get();
    }

    /** The cluster progress epoch from the supervisor: larger whenever some node reported progress. */
    public void remoteAdvanced(long epoch) {
        if (enabled && epoch > remote) {
            remote = epoch;
        }
    }

    /** A value that changes whenever local or relayed progress happened (both parts only increase). */
    public long snapshot() {
        return local.get() + remote;
    }
}
