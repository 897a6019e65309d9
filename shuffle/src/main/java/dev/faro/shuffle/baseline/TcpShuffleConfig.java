package dev.faro.shuffle.baseline;

import dev.faro.shuffle.endpoint.ProgressSignal;
import java.time.Duration;
import java.util.Objects;

/**
 * Sizing and timing of the TCP socket baseline (TODS19 §7.1, "IPoIB": a network upgrade without software changes).
 *
 * @param endpointsPerNode endpoints per node and side: 1 (shared by every thread) or one per thread
 * @param threads SHUFFLE threads per node (a shared endpoint lends each thread a buffer per destination)
 * @param messageBytes bytes of one message, header included (TODS19: 128 KB, the baseline's best setting)
 * @param stallTimeout how long any wait may see no progress at all (neither its own nor {@code progress}'s) before the
 *     shuffle fails with a {@code NETWORK} error
 * @param progress progress elsewhere on this node and in the cluster (see {@link ProgressSignal}); {@link
 *     ProgressSignal#NONE} by default
 * @param handshakeTimeout how long a connection may take to authenticate before a receiver refuses it ({@link
 *     TcpHandshake#HANDSHAKE_TIMEOUT} by default)
 */
public record TcpShuffleConfig(
        int endpointsPerNode,
        int threads,
        int messageBytes,
        Duration stallTimeout,
        ProgressSignal progress,
        Duration handshakeTimeout) {

    /** The paper's message size for the socket baseline. */
    public static final int DEFAULT_MESSAGE_BYTES = 128 * 1024;

    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(30);

    /** A configuration without a progress signal: only each wait's own progress counts. */
    public TcpShuffleConfig(int endpointsPerNode, int threads, int messageBytes, Duration stallTimeout) {
        this(endpointsPerNode, threads, messageBytes, stallTimeout, ProgressSignal.NONE);
    }

    /** A configuration with the default handshake timeout. */
    public TcpShuffleConfig(
            int endpointsPerNode, int threads, int messageBytes, Duration stallTimeout, ProgressSignal progress) {
        this(endpointsPerNode, threads, messageBytes, stallTimeout, progress, TcpHandshake.HANDSHAKE_TIMEOUT);
    }

    public TcpShuffleConfig {
        Objects.requireNonNull(stallTimeout, "stallTimeout is null");
        Objects.requireNonNull(progress, "progress is null");
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout is null");
        if (threads < 1 || (endpointsPerNode != 1 && endpointsPerNode != threads)) {
            throw new IllegalArgumentException("endpointsPerNode must be 1 or threads: endpointsPerNode="
                    + endpointsPerNode + ", threads=" + threads);
        }
        if (messageBytes <= 64) {
            throw new IllegalArgumentException("messageBytes must exceed 64: messageBytes=" + messageBytes);
        }
        if (stallTimeout.isNegative() || stallTimeout.isZero()) {
            throw new IllegalArgumentException("stallTimeout must be positive: stallTimeout=" + stallTimeout);
        }
        if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
            throw new IllegalArgumentException(
                    "handshakeTimeout must be positive: handshakeTimeout=" + handshakeTimeout);
        }
    }

    /** One endpoint per thread, 128 KB messages. */
    public static TcpShuffleConfig perThread(int threads) {
        return new TcpShuffleConfig(threads, threads, DEFAULT_MESSAGE_BYTES, DEFAULT_STALL_TIMEOUT);
    }

    public TcpShuffleConfig withMessageBytes(int bytes) {
        return new TcpShuffleConfig(endpointsPerNode, threads, bytes, stallTimeout, progress, handshakeTimeout);
    }

    public TcpShuffleConfig withStallTimeout(Duration timeout) {
        return new TcpShuffleConfig(endpointsPerNode, threads, messageBytes, timeout, progress, handshakeTimeout);
    }

    public TcpShuffleConfig withProgress(ProgressSignal signal) {
        return new TcpShuffleConfig(endpointsPerNode, threads, messageBytes, stallTimeout, signal, handshakeTimeout);
    }

    /** The same configuration with another handshake timeout (tests of refused connections use a short one). */
    public TcpShuffleConfig withHandshakeTimeout(Duration timeout) {
        return new TcpShuffleConfig(endpointsPerNode, threads, messageBytes, stallTimeout, progress, timeout);
    }

    /** How many threads share one endpoint. */
    int threadsPerEndpoint() {
        return endpointsPerNode == 1 ? threads : 1;
    }
}
