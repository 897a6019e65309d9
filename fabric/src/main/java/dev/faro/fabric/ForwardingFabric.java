package dev.faro.fabric;

import java.util.Objects;
import java.util.Set;

/**
 * A {@link Fabric} that passes every call to another one, for wrappers that change or observe a few of them (count
 * the queue pairs a transport creates, hold back a fake NIC's WRITEs in a test): a subclass overrides only those.
 * Closing it closes the delegate unless the subclass says otherwise.
 */
public abstract class ForwardingFabric implements Fabric {

    private final Fabric delegate;

    protected ForwardingFabric(Fabric delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate is null");
    }

    /** The fabric every call goes to. */
    protected final Fabric delegate() {
        return delegate;
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
        return delegate.createRcQueuePair(config);
    }

    @Override
    public UdQueuePair createUdQueuePair(QueuePairConfig config) {
        return delegate.createUdQueuePair(config);
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
