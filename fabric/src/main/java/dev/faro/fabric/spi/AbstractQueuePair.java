package dev.faro.fabric.spi;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.QueuePairType;
import dev.faro.fabric.WorkRequest;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What every provider's queue pair does the same way: its number, config and state, and the skeleton of
 * {@code postSend}: under the send lock, refuse a closed queue pair, validate the request (the checks of
 * {@link WorkRequestChecks}, its local region, then the service type's own), hand it to the provider
 * ({@link #enqueue}), and after the lock ring the provider's doorbell ({@link #afterPost}). For providers (net, shm,
 * ucx): a subclass implements the service's interface ({@code RcQueuePair}, {@code UdQueuePair}).
 *
 * <p>Threads: the state is written with volatile or compare-and-set stores (posting threads under the send lock, the
 * progress thread on ERROR, any thread on close) and read with volatile loads. Data path: {@link #postSend} is
 * allocation-free while its checks pass.
 *
 * @param <R> the provider's region type
 */
public abstract class AbstractQueuePair<R extends AbstractMemoryRegion> {

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(AbstractQueuePair.class, "state", QueuePairState.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The queue pair number, unique on its node. */
    protected final int qpn;

    protected final QueuePairConfig config;
    /** Serializes posting threads (and, per provider, what must not race a post). */
    protected final ReentrantLock sendLock = new ReentrantLock();

    private final QueuePairAddress address;
    private final Class<R> regionType;
    private final long maxMessageBytes;

    @SuppressWarnings("unused") // accessed through STATE
    private volatile QueuePairState state;

    /**
     * The queue pair at {@code address} in {@code initialState}, taking regions of {@code regionType} and messages of
     * at most {@code maxMessageBytes}.
     */
    protected AbstractQueuePair(
            QueuePairAddress address,
            QueuePairConfig config,
            QueuePairState initialState,
            Class<R> regionType,
            long maxMessageBytes) {
        this.qpn = address.queuePairNumber();
        this.address = address;
        this.config = config;
        this.regionType = regionType;
        this.maxMessageBytes = maxMessageBytes;
        STATE.setVolatile(this, initialState);
    }

    public final int queuePairNumber() {
        return qpn;
    }

    /** The service type, as the address states it. */
    public final QueuePairType type() {
        return address.type();
    }

    /** The address peers use. */
    public final QueuePairAddress address() {
        return address;
    }

    public final QueuePairState state() {
        return (QueuePairState) STATE.getVolatile(this);
    }

    /** Sets the state (volatile store). */
    protected final void storeState(QueuePairState newState) {
        STATE.setVolatile(this, newState);
    }

    /** Moves the state from {@code expected} to {@code newState}; false if it was not {@code expected}. */
    protected final boolean compareAndSetState(QueuePairState expected, QueuePairState newState) {
        return STATE.compareAndSet(this, expected, newState);
    }

    public final int sendQueueDepth() {
        return config.sendQueueDepth();
    }

    public final int receiveQueueDepth() {
        return config.receiveQueueDepth();
    }

    /**
     * The verbs {@code postSend}: see the class comment. {@code CLOSED} on a closed queue pair,
     * {@code INVALID_ARGUMENT} for a bad request, and whatever {@link #enqueue} throws ({@code QUEUE_FULL}); nothing
     * is posted then.
     */
    public final void postSend(WorkRequest request) {
        sendLock.lock();
        try {
            if (state() == QueuePairState.CLOSED) {
                throw QueuePairChecks.queuePairClosed(qpn);
            }
            enqueue(request, validate(request));
        } finally {
            sendLock.unlock();
        }
        afterPost();
    }

    /** Checks a request; returns its local region (null for inline and zero-length requests). Caller holds the lock. */
    private R validate(WorkRequest request) {
        WorkRequestChecks.checkSendRequest(request, config.maxInlineBytes(), maxMessageBytes);
        R local = null;
        if (WorkRequestChecks.usesLocalRegion(request)) {
            local = checkLocal(
                    request.localRegion(),
                    request.localOffset(),
                    request.length(),
                    WorkRequestChecks.writesLocally(request));
        }
        validateForType(request);
        return local;
    }

    /** Checks a local region argument: given, registered with this node, in bounds, writable when {@code write}. */
    public final R checkLocal(MemoryRegion region, long offset, long length, boolean write) {
        FaroException.checkArgument(region != null, "no local region given");
        if (!regionType.isInstance(region) || !isOwn(regionType.cast(region))) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "region " + region + " is not registered with this fabric node");
        }
        WorkRequestChecks.checkLocalSegment(region, offset, length, write);
        return regionType.cast(region);
    }

    /** Whether {@code region} belongs to this queue pair's node. */
    protected abstract boolean isOwn(R region);

    /** Checks what depends on the service type; throws {@code INVALID_ARGUMENT}. Caller holds the send lock. */
    protected abstract void validateForType(WorkRequest request);

    /**
     * Posts a validated request whose local region ({@code local}, null if none) is this node's: queues it, or runs
     * it. Caller holds the send lock; throws {@code QUEUE_FULL} (or {@code CLOSED} for a region closed meanwhile)
     * having posted nothing.
     */
    protected abstract void enqueue(WorkRequest request, R local);

    /** After a post, outside the lock: wakes the provider's progress thread if it needs to be. Default: nothing. */
    protected void afterPost() {}
}
