package dev.faro.bench.hyper;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricCapabilities;
import dev.faro.fabric.FabricCounters;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.UdQueuePair;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Fabric} that counts the queue pairs (RC and UD) a transport creates on it, so that V1 measures the classic
 * exchange's connections and buffers on the live objects rather than only computing them. Delegates everything; closing it closes the delegate. Coordination code: the counts are taken at
 * set-up, never on the data path.
 */
final class CountingFabric implements Fabric {

    private final Fabric delegate;
    private final AtomicLong rcQueuePairs = new AtomicLong();
    private final AtomicLong udQueuePairs = new AtomicLong();

    CountingFabric(Fabric delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate is null");
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
    public String provider() {
        return delegate.provider();
    }

    @Override
    public long node() {
        return delegate.node();
    }

    @Override
    public String nodeName() {
        return delegate.nodeName();
    }

    @Override
    public FabricCapabilities capabilities() {
        return delegate.capabilities();
    }

    @Override
    public MemoryRegion register(long lengthBytes, Set<Access> access) {
        return delegate.register(lengthBytes, access);
    }

    @Override
    public CompletionQueue createCompletionQueue(int capacity) {
        return delegate.createCompletionQueue(capacity);
    }

    @Override
    public RcQueuePair createRcQueuePair(QueuePairConfig config) {
        RcQueuePair queuePair = delegate.createRcQueuePair(config);
        rcQueuePairs.incrementAndGet();
        return queuePair;
    }

    @Override
    public UdQueuePair createUdQueuePair(QueuePairConfig config) {
        UdQueuePair queuePair = delegate.createUdQueuePair(config);
        udQueuePairs.incrementAndGet();
        return queuePair;
    }

    @Override
    public RemoteKey importRemoteKey(byte[] bytes) {
        return delegate.importRemoteKey(bytes);
    }

    @Override
    public QueuePairAddress importAddress(byte[] bytes) {
        return delegate.importAddress(bytes);
    }

    @Override
    public FabricCounters counters() {
        return delegate.counters();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
