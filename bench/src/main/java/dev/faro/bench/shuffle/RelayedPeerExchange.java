package dev.faro.bench.shuffle;

import dev.faro.fabric.FaroException;
import dev.faro.shuffle.setup.PeerExchange;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;

/**
 * The worker's {@link PeerExchange}: an all-gather relayed through the coordinator. {@link #allGather} posts a
 * {@code GATHER key hex} event (which the coordinator collects with {@code NEXT}) and waits; the coordinator answers
 * with {@code GATHERED key hex0 hex1 ...} once every node of the case contributed ({@link #deliver}), or gives up on
 * the case with {@code ABANDON reason} ({@link #abandon}), which fails the waiting call and every later one with
 * {@code NETWORK}. Values are hex, {@code -} when empty.
 *
 * <p>Threads: the case's conductor thread calls {@link #allGather}; the worker's main thread (the command loop) calls
 * {@link #deliver} and {@link #abandon}. Coordination code: a monitor guards the state.
 */
final class RelayedPeerExchange implements PeerExchange {

    static final String EMPTY = "-";
    private static final HexFormat HEX = HexFormat.of();

    private final int nodeIndex;
    private final int nodes;
    private final Duration timeout;
    private final Consumer<String> events;

    // Guarded by this.
    private String pendingKey;
    private byte[][] answer;
    private String abandonReason;

    /**
     * @param events where {@code GATHER} events go (the case's event queue)
     * @param timeout how long one all-gather may wait for the coordinator's answer
     */
    RelayedPeerExchange(int nodeIndex, int nodes, Duration timeout, Consumer<String> events) {
        this.nodeIndex = nodeIndex;
        this.nodes = nodes;
        this.timeout = timeout;
        this.events = events;
    }

    @Override
    public int nodeIndex() {
        return nodeIndex;
    }

    @Override
    public int nodes() {
        return nodes;
    }

    @Override
    public byte[][] allGather(String key, byte[] local) {
        if (key.isEmpty() || key.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("exchange keys must be one word: '" + key + "'");
        }
        synchronized (this) {
            throwIfAbandoned(key);
            if (pendingKey != null) {
                throw new IllegalStateException("exchange '" + key + "' started while '" + pendingKey + "' is pending");
            }
            pendingKey = key;
            answer = null;
        }
        events.accept("GATHER " + key + " " + encode(local));
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            try {
                while (answer == null) {
                    throwIfAbandoned(key);
                    long leftNs = deadlineNs - System.nanoTime();
                    if (leftNs <= 0) {
                        throw new FaroException(FaroException.Category.TIMEOUT, "node " + nodeIndex + ": exchange '"
                                + key + "' got no answer from the coordinator within " + timeout);
                    }
                    wait(Math.max(1, leftNs / 1_000_000));
                }
                return answer;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FaroException(FaroException.Category.NETWORK, "interrupted during exchange '" + key + "'", e);
            } finally {
                pendingKey = null;
                answer = null;
            }
        }
    }

    private void throwIfAbandoned(String key) {
        if (abandonReason != null) {
            throw new FaroException(FaroException.Category.NETWORK, "node " + nodeIndex + ": exchange '" + key
                    + "' abandoned by the coordinator: " + abandonReason);
        }
    }

    /** The coordinator's {@code GATHERED key hex...}: every node's contribution, by node. */
    synchronized void deliver(String key, List<String> values) {
        if (!key.equals(pendingKey)) {
            throw new IllegalStateException("GATHERED for exchange '" + key + "' but the pending one is '"
                    + pendingKey + "'");
        }
        if (values.size() != nodes) {
            throw new IllegalArgumentException("GATHERED " + key + " carries " + values.size() + " values for "
                    + nodes + " nodes");
        }
        byte[][] all = new byte[nodes][];
        for (int node = 0; node < nodes; node++) {
            all[node] = decode(values.get(node));
        }
        answer = all;
        notifyAll();
    }

    /** The coordinator's {@code ABANDON reason}: fails the pending and every later exchange. */
    synchronized void abandon(String reason) {
        if (abandonReason == null) {
            abandonReason = reason;
        }
        notifyAll();
    }

    static String encode(byte[] value) {
        return value.length == 0 ? EMPTY : HEX.formatHex(value);
    }

    static byte[] decode(String text) {
        return text.equals(EMPTY) ? new byte[0] : HEX.parseHex(text);
    }
}
