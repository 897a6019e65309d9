package dev.faro.shuffle.buffer;

/**
 * How many registered buffers an endpoint keeps in circulation (TODS19 §6).
 *
 * <ul>
 *   <li>{@link Fixed}: a fixed queue depth per peer, the paper's baseline (E8: 28 … 10,000 buffers).</li>
 *   <li>{@link BandwidthDelay}: query-oblivious sizing, depth = bandwidth × round-trip time / buffer size (§6.1), a
 *       lower bound that ignores how long the consumer takes.</li>
 *   <li>{@link Adaptive}: query-aware (§6.2): keep about one buffer waiting; borrow one from the node's pool when
 *       none is, retire the surplus when several are.</li>
 * </ul>
 */
public sealed interface BufferPolicy {

    /** The buffers per peer an endpoint starts with. */
    int initialPerPeer();

    /** The most buffers per peer an endpoint may hold. */
    int maximumPerPeer();

    /** A fixed depth of {@code perPeer} buffers per peer. */
    record Fixed(int perPeer) implements BufferPolicy {
        public Fixed {
            if (perPeer < 1) {
                throw new IllegalArgumentException("perPeer must be positive: perPeer=" + perPeer);
            }
        }

        @Override
        public int initialPerPeer() {
            return perPeer;
        }

        @Override
        public int maximumPerPeer() {
            return perPeer;
        }
    }

    /**
     * The bandwidth-delay product: {@code ceil(bandwidth × roundTrip / bufferBytes)} buffers per peer, at least 2
     * (double buffering).
     */
    record BandwidthDelay(double bytesPerSecond, long roundTripNanos, int bufferBytes) implements BufferPolicy {
        public BandwidthDelay {
            if (!(bytesPerSecond > 0) || roundTripNanos <= 0 || bufferBytes <= 0) {
                throw new IllegalArgumentException(
                        "bandwidth, round trip and buffer size must be positive: bytesPerSecond=" + bytesPerSecond
                                + ", roundTripNanos=" + roundTripNanos + ", bufferBytes=" + bufferBytes);
            }
        }

        @Override
        public int initialPerPeer() {
            double inFlightBytes = bytesPerSecond * roundTripNanos / 1e9;
            return (int) Math.max(2, Math.min(1 << 16, Math.ceil(inFlightBytes / bufferBytes)));
        }

        @Override
        public int maximumPerPeer() {
            return initialPerPeer();
        }
    }

    /** Start with {@code initialPerPeer}, grow up to {@code maximumPerPeer} when starved, shrink when idle buffers pile up. */
    record Adaptive(int initialPerPeer, int maximumPerPeer) implements BufferPolicy {
        public Adaptive {
            if (initialPerPeer < 1 || maximumPerPeer < initialPerPeer) {
                throw new IllegalArgumentException("need 1 <= initialPerPeer <= maximumPerPeer: initialPerPeer="
                        + initialPerPeer + ", maximumPerPeer=" + maximumPerPeer);
            }
        }
    }

    /** Whether the circulation changes at run time. */
    default boolean isAdaptive() {
        return this instanceof Adaptive;
    }
}
