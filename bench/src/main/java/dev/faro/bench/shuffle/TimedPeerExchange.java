package dev.faro.bench.shuffle;

import dev.faro.fabric.bootstrap.PeerExchange;
import java.util.Objects;

/**
 * A {@link PeerExchange} that counts the time its callers spend inside {@link #allGather}: the address exchange of an
 * endpoint open, including the wait for the slowest node. What is left of the open is the node's own work (queue
 * pairs, registration, connection), which E6 reports apart from it.
 *
 * <p>Used by the conductor thread of one case only.
 */
final class TimedPeerExchange implements PeerExchange {

    private final PeerExchange delegate;
    private long exchangeNanos;

    TimedPeerExchange(PeerExchange delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate is null");
    }

    @Override
    public int nodeIndex() {
        return delegate.nodeIndex();
    }

    @Override
    public int nodes() {
        return delegate.nodes();
    }

    @Override
    public byte[][] allGather(String key, byte[] local) {
        long startNanos = System.nanoTime();
        try {
            return delegate.allGather(key, local);
        } finally {
            exchangeNanos += System.nanoTime() - startNanos;
        }
    }

    /** Nanoseconds spent in {@link #allGather} so far. */
    long exchangeNanos() {
        return exchangeNanos;
    }
}
