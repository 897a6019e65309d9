package dev.faro.bench.shuffle;

import dev.faro.shuffle.buffer.BufferPolicy;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.write.WriteCompletionMode;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What the experiments vary beyond a {@link ShuffleCase}'s design and data: which transport carries the shuffle, the
 * credit write-back frequency, the RDMA WRITE completion mode, the buffer policy, and how much work the RECEIVE
 * threads do per vector (compute intensity, TODS19 §7.1.2, §7.1.7), optionally more on one slow node (§7.1.8's
 * skew).
 * Immutable and validated; travels as {@code key=value} words after the case's own.
 *
 * @param transport the design's endpoints over the fabric, or the TCP socket baseline
 * @param creditWriteBackFrequency receives re-posted per credit write; 0 keeps the shuffle layer's default (2)
 * @param writeCompletionMode how RDMA WRITE receivers learn of a written buffer
 * @param bufferPolicy {@code fixed} (the case's buffers per peer), {@code bdp:<bytesPerSecond>:<roundTripNanos>} or
 *     {@code adaptive:<initial>:<maximum>} (per peer)
 * @param receiveWork extra passes over every received vector (each pass hashes every tuple); 0 = copy and checksum
 *     only
 * @param slowNode a node whose RECEIVE threads do {@code slowNodeWork} passes instead, or -1
 * @param slowNodeWork the slow node's passes
 */
public record CaseTuning(
        Transport transport,
        int creditWriteBackFrequency,
        WriteCompletionMode writeCompletionMode,
        String bufferPolicy,
        int receiveWork,
        int slowNode,
        int slowNodeWork) {

    /** What carries the tuples. */
    public enum Transport {
        /** The case's endpoint design over the {@code shm} fabric. */
        FABRIC,
        /** The TCP socket baseline ({@link dev.faro.shuffle.baseline.TcpShuffleOpener}), 128 KB messages. */
        TCP
    }

    /** The designs as the shuffle layer opens them by default. */
    public static final CaseTuning DEFAULT =
            new CaseTuning(Transport.FABRIC, 0, WriteCompletionMode.DEFAULT, "fixed", 0, -1, 0);

    public CaseTuning {
        Objects.requireNonNull(transport, "transport is null");
        Objects.requireNonNull(writeCompletionMode, "writeCompletionMode is null");
        Objects.requireNonNull(bufferPolicy, "bufferPolicy is null");
        if (creditWriteBackFrequency < 0 || receiveWork < 0 || slowNodeWork < 0 || slowNode < -1) {
            throw new IllegalArgumentException("negative tuning: credit=" + creditWriteBackFrequency + ", work="
                    + receiveWork + ", slowNode=" + slowNode + ", slowNodeWork=" + slowNodeWork);
        }
        if (bufferPolicy.contains(" ") || bufferPolicy.contains("=")) {
            throw new IllegalArgumentException("bufferPolicy must be one word: '" + bufferPolicy + "'");
        }
        policy(bufferPolicy, 1, 1024); // validates the words
    }

    public CaseTuning withTransport(Transport newTransport) {
        return new CaseTuning(
                newTransport,
                creditWriteBackFrequency,
                writeCompletionMode,
                bufferPolicy,
                receiveWork,
                slowNode,
                slowNodeWork);
    }

    public CaseTuning withCreditWriteBackFrequency(int frequency) {
        return new CaseTuning(
                transport, frequency, writeCompletionMode, bufferPolicy, receiveWork, slowNode, slowNodeWork);
    }

    public CaseTuning withWriteCompletionMode(WriteCompletionMode mode) {
        return new CaseTuning(
                transport, creditWriteBackFrequency, mode, bufferPolicy, receiveWork, slowNode, slowNodeWork);
    }

    public CaseTuning withBufferPolicy(String policy) {
        return new CaseTuning(
                transport, creditWriteBackFrequency, writeCompletionMode, policy, receiveWork, slowNode, slowNodeWork);
    }

    public CaseTuning withReceiveWork(int passes) {
        return new CaseTuning(
                transport, creditWriteBackFrequency, writeCompletionMode, bufferPolicy, passes, slowNode, slowNodeWork);
    }

    public CaseTuning withSlowNode(int node, int passes) {
        return new CaseTuning(
                transport, creditWriteBackFrequency, writeCompletionMode, bufferPolicy, receiveWork, node, passes);
    }

    /** The receive passes of node {@code node}. */
    public int receiveWork(int node) {
        return node == slowNode ? slowNodeWork : receiveWork;
    }

    /** Applies the tuning to the shuffle layer's configuration. */
    EndpointConfig apply(EndpointConfig config, int buffersPerPeer) {
        EndpointConfig tuned = config.withWriteCompletionMode(writeCompletionMode)
                .withBufferPolicy(policy(bufferPolicy, buffersPerPeer, config.bufferBytes()));
        return creditWriteBackFrequency == 0 ? tuned : tuned.withCreditWriteBackFrequency(creditWriteBackFrequency);
    }

    /** Parses a buffer policy word. */
    static BufferPolicy policy(String word, int buffersPerPeer, int bufferBytes) {
        String[] parts = word.split(":");
        try {
            return switch (parts[0]) {
                case "fixed" -> new BufferPolicy.Fixed(parts.length > 1 ? Integer.parseInt(parts[1]) : buffersPerPeer);
                case "bdp" ->
                    new BufferPolicy.BandwidthDelay(
                            Double.parseDouble(parts[1]), Long.parseLong(parts[2]), bufferBytes);
                case "adaptive" -> new BufferPolicy.Adaptive(Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
                default ->
                    throw new IllegalArgumentException(
                            "unknown buffer policy '" + word
                                    + "': use fixed, fixed:<n>, bdp:<bytesPerSecond>:<roundTripNanos> or adaptive:<initial>:<max>");
            };
        } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
            throw new IllegalArgumentException("malformed buffer policy '" + word + "'", e);
        }
    }

    /** The tuning as {@code key=value} words. */
    String encode() {
        return "transport=" + transport.name().toLowerCase(Locale.ROOT) + " credit=" + creditWriteBackFrequency
                + " writeMode=" + writeCompletionMode.name() + " bufferPolicy=" + bufferPolicy + " work=" + receiveWork
                + " slowNode=" + slowNode + " slowWork=" + slowNodeWork;
    }

    /** Parses {@link #encode()}'s words out of {@code fields}; missing words keep their defaults. */
    static CaseTuning decode(Map<String, String> fields) {
        return new CaseTuning(
                Transport.valueOf(fields.getOrDefault("transport", "fabric").toUpperCase(Locale.ROOT)),
                Integer.parseInt(fields.getOrDefault("credit", "0")),
                WriteCompletionMode.valueOf(fields.getOrDefault("writeMode", WriteCompletionMode.DEFAULT.name())),
                fields.getOrDefault("bufferPolicy", "fixed"),
                Integer.parseInt(fields.getOrDefault("work", "0")),
                Integer.parseInt(fields.getOrDefault("slowNode", "-1")),
                Integer.parseInt(fields.getOrDefault("slowWork", "0")));
    }
}
