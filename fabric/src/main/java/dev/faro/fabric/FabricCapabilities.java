package dev.faro.fabric;

/**
 * What a provider offers, so callers (and shuffle designs) can fail early with a clear message.
 *
 * @param supportsUd whether {@link Fabric#createUdQueuePair} works
 * @param udMtuBytes the largest UD payload (0 without UD)
 * @param maxInlineBytes the largest inline payload a queue pair may be configured with
 * @param maxMessageBytes the largest RC message
 * @param maxQueueDepth the largest send or receive queue depth
 * @param maxCompletionQueueCapacity the largest completion queue
 */
public record FabricCapabilities(
        boolean supportsUd,
        int udMtuBytes,
        int maxInlineBytes,
        long maxMessageBytes,
        int maxQueueDepth,
        int maxCompletionQueueCapacity) {}
