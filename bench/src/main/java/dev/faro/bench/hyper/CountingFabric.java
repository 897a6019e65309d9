package dev.faro.bench.hyper;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.ForwardingFabric;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.UdQueuePair;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Fabric} that counts the queue pairs (RC and UD) a transport creates on it, so that V1 measures the classic
 * exchange's connections and buffers on the live objects rather than only computing them. Everything else goes to the
 * delegate; closing it closes the delegate. Coordination code: the counts are taken at set-up, never on the data path.
 */
final class CountingFabric extends ForwardingFabric {

    private final AtomicLong rcQueuePairs = new AtomicLong();
    private final AtomicLong udQueuePairs = new AtomicLong();

    CountingFabric(Fabric delegate) {
        super(delegate);
    }

    /** RC queue pairs created so far. */
    long rcQueuePairs() {
        return rcQueuePairs.get();
    }

    /** UD queue pairs created so far. */
    long udQueuePairs() {
        return udQueuePairs.get();
    }

    @Override
    public RcQueuePair createRcQueuePair(QueuePairConfig config) {
        RcQueuePair queuePair = super.createRcQueuePair(config);
        rcQueuePairs.incrementAndGet();
        return queuePair;
    }

    @Override
    public UdQueuePair createUdQueuePair(QueuePairConfig config) {
        UdQueuePair queuePair = super.createUdQueuePair(config);
        udQueuePairs.incrementAndGet();
        return queuePair;
    }
}
