package dev.faro.fabric.spi;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricCapabilities;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.QueuePairConfig;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What every provider's {@link Fabric} node does the same way: its identity, the open check (closed, or its progress
 * thread failed), the skeletons of {@link #register}, {@link #createCompletionQueue}, of a queue pair's creation
 * ({@link #attachQueuePair}) and of {@link #close()}, and the list of its completion queues. For providers (net, shm,
 * ucx): a subclass says how a region and a completion queue are made, how a queue pair joins its tables, and what its
 * close stops and releases.
 *
 * <pre>
 *  register:  checkOpen, checkRegion, newRegion (outside the lock), then under this: closed? discardRegion, CLOSED
 *             : addRegion
 *  close:     closed := true (once, under this); shutDown (stop the progress thread, close the queue pairs, in the
 *             provider's order); close every completion queue; releaseMemory; rethrow shutDown's failure
 * </pre>
 *
 * <p>Coordination code; thread-safe. Tables are guarded by {@code this}.
 *
 * @param <R> the provider's region type
 * @param <C> the provider's completion queue type
 */
public abstract class AbstractFabric<R extends AbstractMemoryRegion, C extends AbstractCompletionQueue>
        implements Fabric {

    private static final System.Logger LOG = System.getLogger(AbstractFabric.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();

    private final FabricConfig config;
    private final long node;
    private final String provider;
    private final FabricCapabilities capabilities;
    private final Class<C> completionQueueType;

    private final AtomicInteger nextRegionId = new AtomicInteger();
    private final AtomicInteger nextQueuePairNumber = new AtomicInteger(1);
    private final AtomicInteger nextCompletionQueueId = new AtomicInteger();
    private final List<C> completionQueues = new ArrayList<>();
    private final AtomicReference<Throwable> agentFailure = new AtomicReference<>();
    private volatile boolean closed;

    /** A node {@code node} (non-zero, see {@link #newNodeId()}) of {@code provider}. */
    protected AbstractFabric(
            FabricConfig config,
            long node,
            String provider,
            FabricCapabilities capabilities,
            Class<C> completionQueueType) {
        this.config = config;
        this.node = node;
        this.provider = provider;
        this.capabilities = capabilities;
        this.completionQueueType = completionQueueType;
    }

    /** A random non-zero node id. */
    protected static long newNodeId() {
        long node;
        do {
            node = RANDOM.nextLong() & Long.MAX_VALUE;
        } while (node == 0);
        return node;
    }

    /** A random region key, the secret peers must present. */
    protected static int newKey() {
        return RANDOM.nextInt();
    }

    public final FabricConfig config() {
        return config;
    }

    @Override
    public final String provider() {
        return provider;
    }

    @Override
    public final long node() {
        return node;
    }

    @Override
    public final String nodeName() {
        return config.nodeName();
    }

    @Override
    public final FabricCapabilities capabilities() {
        return capabilities;
    }

    /** Whether {@link #close()} has begun. */
    public final boolean isClosed() {
        return closed;
    }

    /** Throws {@code CLOSED} if the node is closed, {@code IO} if its progress thread failed. */
    protected final void checkOpen() {
        FabricChecks.checkOpen(config.nodeName(), closed, agentFailure.get());
    }

    /**
     * The progress thread failed: the first failure is logged and makes every later creation fail; later ones are
     * attached to it. Never throws.
     */
    public final void reportAgentFailure(Throwable failure) {
        if (agentFailure.compareAndSet(null, failure)) {
            LOG.log(Level.ERROR, "fabric node " + config.nodeName() + ": progress thread failed", failure);
        } else if (agentFailure.get() != failure) {
            agentFailure.get().addSuppressed(failure);
        }
    }

    // ============================================================================================== regions

    @Override
    public final MemoryRegion register(long lengthBytes, Set<Access> access) {
        checkOpen();
        FabricChecks.checkRegion(lengthBytes, access, capabilities);
        R region = newRegion(nextRegionId.getAndIncrement(), newKey(), lengthBytes, access);
        synchronized (this) {
            if (closed) {
                discardRegion(region);
                throw FabricChecks.nodeClosed(nodeName());
            }
            addRegion(region);
        }
        return region;
    }

    /** Allocates and registers zeroed memory as region {@code id} with {@code key}; not yet in any table. */
    protected abstract R newRegion(int id, int key, long lengthBytes, Set<Access> access);

    /** Enters a new region in the provider's tables. Called under {@code this}, while the node is open. */
    protected abstract void addRegion(R region);

    /** Frees a region made while the node closed, which no table holds. Called under {@code this}. */
    protected abstract void discardRegion(R region);

    // ===================================================================================== completion queues

    @Override
    public final CompletionQueue createCompletionQueue(int capacity) {
        checkOpen();
        FabricChecks.checkCompletionQueueCapacity(capacity, capabilities);
        C queue = newCompletionQueue(nextCompletionQueueId.getAndIncrement(), capacity);
        synchronized (this) {
            completionQueues.add(queue);
        }
        return queue;
    }

    /** A new completion queue {@code id} of this node. */
    protected abstract C newCompletionQueue(int id, int capacity);

    /** {@code queue} as this node's own, open completion queue; {@code INVALID_ARGUMENT} or {@code CLOSED} if not. */
    public final C localCompletionQueue(CompletionQueue queue) {
        if (!completionQueueType.isInstance(queue)
                || !completionQueueType.cast(queue).belongsTo(this)) {
            throw FabricChecks.foreignCompletionQueue(queue);
        }
        C local = completionQueueType.cast(queue);
        if (local.isClosed()) {
            throw FabricChecks.completionQueueClosed(local.id());
        }
        return local;
    }

    /** A completion queue closed. */
    final synchronized void forget(AbstractCompletionQueue queue) {
        completionQueues.remove(queue);
    }

    // =========================================================================================== queue pairs

    /**
     * The first half of creating a queue pair: checks that the node is open and the config, reserves the queue
     * pair's depths in its completion queues (all or nothing) and returns its new queue pair number. The provider
     * then builds the queue pair and enters it in its tables; its close {@link AbstractCompletionQueue#detach}es.
     */
    protected final int attachQueuePair(QueuePairConfig queuePairConfig) {
        checkOpen();
        FabricChecks.checkQueuePairConfig(queuePairConfig, capabilities);
        C sendCq = localCompletionQueue(queuePairConfig.sendCompletionQueue());
        C receiveCq = localCompletionQueue(queuePairConfig.receiveCompletionQueue());
        sendCq.attach(queuePairConfig.sendQueueDepth(), "send queue");
        try {
            receiveCq.attach(queuePairConfig.receiveQueueDepth(), "receive queue");
        } catch (RuntimeException e) {
            sendCq.detach(queuePairConfig.sendQueueDepth());
            throw e;
        }
        return nextQueuePairNumber.getAndIncrement();
    }

    // ============================================================================================ life cycle

    /** Closes the node: see the class comment for the order. Idempotent. */
    @Override
    public final void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        RuntimeException failure = null;
        try {
            shutDown();
        } catch (RuntimeException e) {
            failure = e;
        }
        List<C> queues;
        synchronized (this) {
            queues = List.copyOf(completionQueues);
        }
        queues.forEach(AbstractCompletionQueue::close);
        releaseMemory();
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * The first step of {@link #close()}, after the node is marked closed: stops the progress thread and closes every
     * queue pair, in the order the provider needs. Its exception is rethrown after the rest of the close ran.
     */
    protected abstract void shutDown();

    /** The last step of {@link #close()}, after the completion queues closed: frees the regions and node files left. */
    protected abstract void releaseMemory();

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + config.nodeName() + ", node=" + Long.toHexString(node) + "]";
    }
}
