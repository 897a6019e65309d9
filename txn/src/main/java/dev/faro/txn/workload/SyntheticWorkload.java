package dev.faro.txn.workload;

import dev.faro.txn.lock.LockMode;
import dev.faro.txn.node.Topology;
import java.util.List;
import java.util.SplittableRandom;

/**
 * ETH19's synthetic workload (§5.4.1, Fig. 5.7, Table 5.1): a fixed number of locks per transaction (10 in the
 * thesis), each on another machine with a given probability (0 to 50 %), modes drawn uniformly from IS, IX, S, SIX and
 * X, lock ids uniform in the chosen server's range (no lock twice in one transaction), no data access.
 *
 * <p>Data path: {@link #next} is allocation-free.
 */
public final class SyntheticWorkload implements Workload {

    private static final LockMode[] MODES = {LockMode.IS, LockMode.IX, LockMode.S, LockMode.SIX, LockMode.X};

    private final Topology topology;
    private final int locksPerTransaction;
    private final double remoteProbability;

    public SyntheticWorkload(Topology topology, int locksPerTransaction, double remoteProbability) {
        this.topology = java.util.Objects.requireNonNull(topology, "topology is null");
        if (locksPerTransaction <= 0 || locksPerTransaction > topology.locksPerServer()) {
            throw new IllegalArgumentException(
                    "locksPerTransaction must be in [1, " + topology.locksPerServer() + "]: " + locksPerTransaction);
        }
        if (!(remoteProbability >= 0 && remoteProbability <= 1)) {
            throw new IllegalArgumentException("remoteProbability must be in [0, 1]: " + remoteProbability);
        }
        if (remoteProbability > 0 && topology.nodes() < 2) {
            throw new IllegalArgumentException("remote locks need at least 2 nodes");
        }
        this.locksPerTransaction = locksPerTransaction;
        this.remoteProbability = remoteProbability;
    }

    @Override
    public String name() {
        return "synthetic " + locksPerTransaction + " locks, " + Math.round(remoteProbability * 100) + "% remote";
    }

    @Override
    public List<String> transactionTypes() {
        return List.of("synthetic");
    }

    public double remoteProbability() {
        return remoteProbability;
    }

    public int locksPerTransaction() {
        return locksPerTransaction;
    }

    @Override
    public void next(int agent, SplittableRandom random, LockList into) {
        into.clear(0);
        int home = topology.nodeOfAgent(agent);
        while (into.size() < locksPerTransaction) {
            int node = home;
            if (remoteProbability > 0 && random.nextDouble() < remoteProbability) {
                node = (home + 1 + random.nextInt(topology.nodes() - 1)) % topology.nodes();
            }
            int server = topology.server(node, random.nextInt(topology.serversPerNode()));
            long lockId = topology.firstLock(server) + random.nextInt(topology.locksPerServer());
            if (!into.contains(lockId)) {
                into.add(lockId, MODES[random.nextInt(MODES.length)]);
            }
        }
    }
}
