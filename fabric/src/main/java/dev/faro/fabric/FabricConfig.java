package dev.faro.fabric;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How to open a {@link Fabric} node.
 *
 * @param provider the provider's name ({@code shm}, later {@code net}, {@code ucx})
 * @param nodeName a human-readable name for logs and error messages
 * @param peerTimeout how long a peer may be unresponsive (dead process, closed fabric, a stuck shared slot) before
 *     the requests that involve it complete with errors; default 3 s
 * @param receiverNotReadyTimeout how long a SEND or WRITE_WITH_IMMEDIATE retries when the peer has no receive
 *     posted, before it completes with {@link CompletionStatus#RECEIVER_NOT_READY_RETRY_EXCEEDED}; default 2 s
 * @param faults seeded UD fault injection; {@link FaultInjection#NONE} by default
 * @param options provider-specific settings, documented by each provider (e.g. {@code shm.directory})
 */
public record FabricConfig(
        String provider,
        String nodeName,
        Duration peerTimeout,
        Duration receiverNotReadyTimeout,
        FaultInjection faults,
        Map<String, String> options) {

    public static final Duration DEFAULT_PEER_TIMEOUT = Duration.ofSeconds(3);
    public static final Duration DEFAULT_RECEIVER_NOT_READY_TIMEOUT = Duration.ofSeconds(2);

    public FabricConfig {
        Objects.requireNonNull(provider, "provider is null");
        Objects.requireNonNull(nodeName, "nodeName is null");
        Objects.requireNonNull(peerTimeout, "peerTimeout is null");
        Objects.requireNonNull(receiverNotReadyTimeout, "receiverNotReadyTimeout is null");
        Objects.requireNonNull(faults, "faults is null");
        options = Map.copyOf(options);
        FaroException.checkArgument(
                !peerTimeout.isNegative() && !peerTimeout.isZero(), "peerTimeout must be positive: %s", peerTimeout);
        FaroException.checkArgument(
                !receiverNotReadyTimeout.isNegative() && !receiverNotReadyTimeout.isZero(),
                "receiverNotReadyTimeout must be positive: %s",
                receiverNotReadyTimeout);
    }

    /** The defaults for {@code provider}, with the given node name. */
    public static FabricConfig of(String provider, String nodeName) {
        return new FabricConfig(
                provider,
                nodeName,
                DEFAULT_PEER_TIMEOUT,
                DEFAULT_RECEIVER_NOT_READY_TIMEOUT,
                FaultInjection.NONE,
                Map.of());
    }

    public FabricConfig withPeerTimeout(Duration timeout) {
        return new FabricConfig(provider, nodeName, timeout, receiverNotReadyTimeout, faults, options);
    }

    public FabricConfig withReceiverNotReadyTimeout(Duration timeout) {
        return new FabricConfig(provider, nodeName, peerTimeout, timeout, faults, options);
    }

    public FabricConfig withFaults(FaultInjection newFaults) {
        return new FabricConfig(provider, nodeName, peerTimeout, receiverNotReadyTimeout, newFaults, options);
    }

    public FabricConfig withOption(String key, String value) {
        var copy = new java.util.HashMap<>(options);
        copy.put(key, value);
        return new FabricConfig(provider, nodeName, peerTimeout, receiverNotReadyTimeout, faults, copy);
    }

    /** A provider option, or {@code fallback} when unset. */
    public String option(String key, String fallback) {
        return options.getOrDefault(key, fallback);
    }
}
