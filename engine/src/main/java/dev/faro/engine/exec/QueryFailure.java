package dev.faro.engine.exec;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The first failure of any thread of one query on one node (first error wins, by compare-and-set); every thread
 * polls {@link #check()} between batches and stops once another thread failed. Thread-safe.
 */
public final class QueryFailure {

    private final AtomicReference<Throwable> first = new AtomicReference<>();

    /** Records {@code failure} if it is the first; later ones are ignored (they are usually consequences). */
    public void fail(Throwable failure) {
        if (!(failure instanceof QueryAbortedException)) {
            first.compareAndSet(null, failure);
        }
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
