package dev.faro.shuffle.endpoint;

import dev.faro.shuffle.buffer.BufferPolicy;
import dev.faro.shuffle.endpoint.write.WriteCompletionMode;
import java.time.Duration;
import java.util.Objects;

/**
 * Sizing and timing of one shuffle's endpoints.
 *
 * @param design which of the eight designs
 * @param threads threads of the SHUFFLE and RECEIVE operators per node (ME opens one endpoint per thread)
 * @param bufferBytes bytes of one message buffer, header included (TODS19: 64 KiB for MQ, 4 KiB for SQ)
 * @param bufferPolicy how many buffers a sending endpoint keeps per destination, and how many receive buffers a
 *     receiving endpoint posts per source: a fixed depth, the bandwidth-delay product, or adaptive (TODS19 §6)
 * @param creditWriteBackFrequency the receiver writes its credit back after this many re-posted receives (TODS19
 *     §7.1.1: 2)
 * @param stallTimeout how long any wait (buffer, credit, data) may see no progress at all before the shuffle fails
 *     with a {@code NETWORK} error: neither in the wait itself nor in {@code progress} (see {@link WaitLoop}); a slow
 *     but progressing shuffle never fails. Peer failures are reported sooner by the fabric
 * @param datagramTimeout UD designs (TODS19 §5.3): once a source's end-of-stream message has announced how many
 *     messages it sent, how long the receiver waits for the missing ones before it declares them lost
 * @param writeCompletionMode RDMA WRITE designs (TODS19 §5.5): how the receiver learns that a buffer was written;
 *     poll completion queue by default, the paper's choice
 * @param progress progress elsewhere on this node and in the cluster that keeps a waiting endpoint from reporting a
 *     stall; {@link ProgressSignal#NONE} by default (then only the wait's own progress counts)
 */
public record EndpointConfig(
        EndpointDesign design,
        int threads,
        int bufferBytes,
        BufferPolicy bufferPolicy,
        int creditWriteBackFrequency,
        Duration stallTimeout,
        Duration datagramTimeout,
        WriteCompletionMode writeCompletionMode,
        ProgressSignal progress) {

    public static final int DEFAULT_RC_BUFFER_BYTES = 64 * 1024;
    public static final int DEFAULT_UD_BUFFER_BYTES = 4096;
    public static final int DEFAULT_BUFFERS_PER_PEER = 16;
    public static final int DEFAULT_CREDIT_WRITE_BACK_FREQUENCY = 2;
    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_DATAGRAM_TIMEOUT = Duration.ofSeconds(1);

    public EndpointConfig {
        Objects.requireNonNull(design, "design is null");
        Objects.requireNonNull(bufferPolicy, "bufferPolicy is null");
        Objects.requireNonNull(stallTimeout, "stallTimeout is null");
        Objects.requireNonNull(datagramTimeout, "datagramTimeout is null");
        Objects.requireNonNull(writeCompletionMode, "writeCompletionMode is null");
        Objects.requireNonNull(progress, "progress is null");
        check(threads >= 1, "threads must be positive: threads=" + threads);
        check(bufferBytes > 64, "bufferBytes must exceed 64: bufferBytes=" + bufferBytes);
        check(
                creditWriteBackFrequency >= 1 && creditWriteBackFrequency <= bufferPolicy.initialPerPeer(),
                "creditWriteBackFrequency must be within [1, buffers per peer]: creditWriteBackFrequency="
                        + creditWriteBackFrequency + ", buffers per peer=" + bufferPolicy.initialPerPeer()
                        + " (a receiver would never collect enough receives to write credit back)");
        check(!stallTimeout.isNegative() && !stallTimeout.isZero(), "stallTimeout must be positive");
        check(!datagramTimeout.isNegative() && !datagramTimeout.isZero(), "datagramTimeout must be positive");
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** The paper's defaults for {@code design}: 64 KiB (RC) or 4 KiB (UD) buffers, 16 per peer, credit every 2. */
    public static EndpointConfig defaults(EndpointDesign design, int threads) {
        int bytes = design.implementation().needsDatagrams() ? DEFAULT_UD_BUFFER_BYTES : DEFAULT_RC_BUFFER_BYTES;
        return new EndpointConfig(
                design,
                threads,
                bytes,
                new BufferPolicy.Fixed(DEFAULT_BUFFERS_PER_PEER),
                DEFAULT_CREDIT_WRITE_BACK_FREQUENCY,
                DEFAULT_STALL_TIMEOUT,
                DEFAULT_DATAGRAM_TIMEOUT,
                WriteCompletionMode.DEFAULT,
                ProgressSignal.NONE);
    }

    public EndpointConfig withBufferBytes(int bytes) {
        return new EndpointConfig(
                design,
                threads,
                bytes,
                bufferPolicy,
                creditWriteBackFrequency,
                stallTimeout,
                datagramTimeout,
                writeCompletionMode,
                progress);
    }

    /** A fixed depth of {@code buffers} per peer. */
    public EndpointConfig withBuffersPerPeer(int buffers) {
        return withBufferPolicy(new BufferPolicy.Fixed(buffers));
    }

    public EndpointConfig withBufferPolicy(BufferPolicy policy) {
        return new EndpointConfig(
                design,
                threads,
                bufferBytes,
                policy,
                Math.min(creditWriteBackFrequency, policy.initialPerPeer()),
                stallTimeout,
                datagramTimeout,
                writeCompletionMode,
                progress);
    }

    /** The buffers per peer an endpoint starts with (the fixed depth, unless the policy is adaptive). */
    public int buffersPerPeer() {
        return bufferPolicy.initialPerPeer();
    }

    public EndpointConfig withCreditWriteBackFrequency(int frequency) {
        return new EndpointConfig(
                design,
                threads,
                bufferBytes,
                bufferPolicy,
                frequency,
                stallTimeout,
                datagramTimeout,
                writeCompletionMode,
                progress);
    }

    public EndpointConfig withStallTimeout(Duration timeout) {
        return new EndpointConfig(
                design,
                threads,
                bufferBytes,
                bufferPolicy,
                creditWriteBackFrequency,
                timeout,
                datagramTimeout,
                writeCompletionMode,
                progress);
    }

    public EndpointConfig withDatagramTimeout(Duration timeout) {
        return new EndpointConfig(
                design,
                threads,
                bufferBytes,
                bufferPolicy,
                creditWriteBackFrequency,
                stallTimeout,
                timeout,
                writeCompletionMode,
                progress);
    }

    public EndpointConfig withWriteCompletionMode(WriteCompletionMode mode) {
        return new EndpointConfig(
                design,
                threads,
                bufferBytes,
                bufferPolicy,
                creditWriteBackFrequency,
                stallTimeout,
                datagramTimeout,
                mode,
                progress);
    }

    /** These endpoints with {@code signal} as the progress elsewhere that keeps their waits from reporting stalls. */
    public EndpointConfig withProgress(ProgressSignal signal) {
        return new EndpointConfig(
                design,
                threads,
                bufferBytes,
                bufferPolicy,
                creditWriteBackFrequency,
                stallTimeout,
                datagramTimeout,
                writeCompletionMode,
                signal);
    }

    /** Endpoints per node and side: 1 for SE, {@link #threads} for ME. */
    public int endpointsPerNode() {
        return design.sharing() == EndpointSharing.SHARED ? 1 : threads;
    }
}
