package dev.faro.fabric.spi;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricCapabilities;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.QueuePairConfig;
import java.util.Set;

/**
 * The checks every provider's {@link Fabric} makes before it creates anything, so that each one refuses a closed or
 * failed node and bad arguments with the same category and message: whether the node is open, a region's length and
 * rights, a completion queue's capacity, a queue pair's config against the provider's {@link FabricCapabilities}.
 * What only a provider can tell (that a completion queue is its own, how it failed) stays with the provider.
 *
 * <p>For providers (net, shm, ucx).
 */
public final class FabricChecks {

    private FabricChecks() {}

    /**
     * Throws {@code CLOSED} if the node is closed, else {@code IO} (with {@code failure} as the cause) if its progress
     * thread failed.
     */
    public static void checkOpen(String nodeName, boolean closed, Throwable failure) {
        if (closed) {
            throw nodeClosed(nodeName);
        }
        if (failure != null) {
            throw new FaroException(
                    FaroException.Category.IO, "fabric node " + nodeName + " failed: " + failure, failure);
        }
    }

    /** The {@code CLOSED} exception for a node that closed, to throw where a creation raced with the close. */
    public static FaroException nodeClosed(String nodeName) {
        return new FaroException(FaroException.Category.CLOSED, "fabric node " + nodeName + " is closed");
    }

    /** A region's length lies within (0, 16 largest messages] and its rights are given. */
    public static void checkRegion(long lengthBytes, Set<Access> access, FabricCapabilities capabilities) {
        FaroException.checkArgument(
                lengthBytes > 0 && lengthBytes <= capabilities.maxMessageBytes() * 16,
                "region length must be within (0, 16 GiB]: %d",
                lengthBytes);
        FaroException.checkArgument(access != null, "access is null");
    }

    /** A completion queue's capacity lies within [1, the provider's largest]. */
    public static void checkCompletionQueueCapacity(int capacity, FabricCapabilities capabilities) {
        FaroException.checkArgument(
                capacity > 0 && capacity <= capabilities.maxCompletionQueueCapacity(),
                "completion queue capacity must be within [1, %d]: %d",
                capabilities.maxCompletionQueueCapacity(),
                capacity);
    }

    /** A queue pair's config is given and its depths and inline limit are within the provider's. */
    public static void checkQueuePairConfig(QueuePairConfig config, FabricCapabilities capabilities) {
        FaroException.checkArgument(config != null, "queue pair config is null");
        FaroException.checkArgument(
                config.sendQueueDepth() <= capabilities.maxQueueDepth()
                        && config.receiveQueueDepth() <= capabilities.maxQueueDepth(),
                "queue depths must be at most %d",
                capabilities.maxQueueDepth());
        FaroException.checkArgument(
                config.maxInlineBytes() <= capabilities.maxInlineBytes(),
                "maxInlineBytes must be at most %d",
                capabilities.maxInlineBytes());
    }

    /** The {@code INVALID_ARGUMENT} exception for a completion queue of another node or provider. */
    public static FaroException foreignCompletionQueue(CompletionQueue queue) {
        return new FaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "completion queue " + queue + " does not belong to this fabric node");
    }

    /** The {@code CLOSED} exception for a closed completion queue. */
    public static FaroException completionQueueClosed(int id) {
        return new FaroException(FaroException.Category.CLOSED, "completion queue " + id + " is closed");
    }
}
