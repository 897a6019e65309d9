package dev.faro.shuffle.endpoint;

import dev.faro.fabric.FaroException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The first failure of an endpoint, shared by its threads: the first one wins (compare-and-set), and every later
 * call rethrows it, so all threads of an operator stop with the same cause.
 */
public final class EndpointFailure {

    private final AtomicReference<FaroException> first = new AtomicReference<>();
    private final String endpointName;
    private final Supplier<String> state;

    public EndpointFailure(String endpointName) {
        this(endpointName, null);
    }

    /**
     * @param state what the failure's message adds in brackets when a failure is recorded (e.g. the counts of the
     *     multiplexer the endpoint runs on), or null; asked only then, never on the data path
     */
    public EndpointFailure(String endpointName, Supplier<String> state) {
        this.endpointName = endpointName;
        this.state = state;
    }

    /** Rethrows the recorded failure, if any. Data path: one volatile read. */
    public void check() {
        FaroException failure = first.get();
        if (failure != null) {
            throw new FaroException(failure.category(), failure.getMessage(), failure);
        }
    }

    /** Records {@code message} as a NETWORK failure (unless one is recorded already) and throws the winner. */
    public FaroException fail(String message) {
        if (first.get() == null) {
            first.compareAndSet(
                    null,
                    new FaroException(
                            FaroException.Category.NETWORK,
                            endpointName + ": " + message + (state == null ? "" : " [" + state.get() + "]")));
        }
        FaroException winner = first.get();
        throw new FaroException(winner.category(), winner.getMessage(), winner);
    }

    /**
     * Records that the exchange was given up because its query failed elsewhere (unless a failure is recorded
     * already), without throwing: the endpoint's close then skips its close protocol's waits for peers, which gave up
     * too.
     */
    public void abandon() {
        if (first.get() == null) {
            first.compareAndSet(
                    null,
                    new FaroException(FaroException.Category.NETWORK, endpointName + ": abandoned, its query failed"));
        }
    }

    /** Whether a failure was recorded. */
    public boolean failed() {
        return first.get() != null;
    }
}
