package dev.faro.fabric.bootstrap;

import dev.faro.fabric.FaroException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A {@link PeerExchange} for nodes that live in one JVM (tests, in-process clusters): one {@link Group} shared by
 * all nodes, and one member view per node.
 */
public final class LocalPeerExchange implements PeerExchange {

    private final Group group;
    private final int nodeIndex;

    private LocalPeerExchange(Group group, int nodeIndex) {
        this.group = group;
        this.nodeIndex = nodeIndex;
    }

    /** The shared state of {@code nodes} members. */
    public static Group group(int nodes, Duration timeout) {
        return new Group(nodes, timeout);
    }

    @Override
    public int nodeIndex() {
        return nodeIndex;
    }

    @Override
    public int nodes() {
        return group.nodes;
    }

    @Override
    public byte[][] allGather(String key, byte[] local) {
        Round round = group.rounds.computeIfAbsent(key, k -> new Round(group.nodes));
        round.contributions[nodeIndex] = local.clone();
        round.latch.countDown();
        try {
            if (!round.latch.await(group.timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new FaroException(
                        FaroException.Category.TIMEOUT,
                        "exchange '" + key + "': only "
                                + (group.nodes - round.latch.getCount()) + " of " + group.nodes
                                + " nodes arrived within "
                                + group.timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FaroException(FaroException.Category.NETWORK, "interrupted during exchange '" + key + "'", e);
        }
        return round.contributions.clone();
    }

    /** The state shared by the members of one in-JVM exchange. */
    public static final class Group {
        private final int nodes;
        private final Duration timeout;
        private final Map<String, Round> rounds = new ConcurrentHashMap<>();

        private Group(int nodes, Duration timeout) {
            if (nodes < 1) {
                throw new IllegalArgumentException("nodes must be positive: nodes=" + nodes);
            }
            this.nodes = nodes;
            this.timeout = timeout;
        }

        /** The member view of node {@code nodeIndex}. */
        public PeerExchange member(int nodeIndex) {
            if (nodeIndex < 0 || nodeIndex >= nodes) {
                throw new IllegalArgumentException("nodeIndex out of range: nodeIndex=" + nodeIndex);
            }
            return new LocalPeerExchange(this, nodeIndex);
        }
    }

    private static final class Round {
        final byte[][] contributions;
        final CountDownLatch latch;

        Round(int nodes) {
            this.contributions = new byte[nodes][];
            this.latch = new CountDownLatch(nodes);
        }
    }
}
