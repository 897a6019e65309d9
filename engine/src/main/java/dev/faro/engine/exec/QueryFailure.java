package dev.faro.engine.exec;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The first failure of any thread of one query on one node (first error wins, by compare-and-set); every thread
 * polls {@link #check()} between batches and stops once another thread failed. Thread-safe.
 */
public final class QueryFailure {

    private final AtomicReference<Throwable> first = new AtomicReference<>();
    /** When the first failure was recorded: wall-clock nanoseconds since the epoch (comparable between nodes). */
    private volatile long firstAtNanos;

    /** Records {@code failure} if it is the first; later ones are ignored (they are usually consequences). */
    public void fail(Throwable failure) {
        if (!(failure instanceof QueryAbortedException)) {
            Instant now = Instant.now();
            if (first.compareAndSet(null, failure)) {
                firstAtNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
            }
        }
    }

    /** When {@link #first} was recorded, in nanoseconds since the epoch (0 before). */
    public long firstAtNanos() {
        return firstAtNanos;
    }

    public boolean failed() {
        return first.get() != null;
    }

    public Throwable first() {
        return first.get();
    }

    /** Throws {@link QueryAbortedException} when another thread has failed. */
    public void check() {
        if (first.get() != null) {
            throw new QueryAbortedException();
        }
    }

    /** Ends a thread of a query that already failed elsewhere; never the reported failure. */
    public static final class QueryAbortedException extends RuntimeException {
        public QueryAbortedException() {
            super("the query failed in another thread", null, false, false);
        }
    }
}
