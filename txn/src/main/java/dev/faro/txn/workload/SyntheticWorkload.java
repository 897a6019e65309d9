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
 * <p>Contention (not in the thesis, whose 2^16 locks per server hardly ever conflict): with {@code hotProbability} a
 * lock is instead one of the {@value #HOT_LOCKS_PER_SERVER} hot locks at the start of a server's range, the server drawn
 * uniformly among all (so agents of every node meet there). A transaction takes its hot locks first, in ascending id
 * order, so hot locks queue behind each other but never deadlock.
 *
 * <p>Data path: {@link #next} is allocation-free.
 */
public final class SyntheticWorkload implements Workload {

    private static final LockMode[] MODES = {LockMode.IS, LockMode.IX, LockMode.S, LockMode.SIX, LockMode.X};

    /** Hot locks per server: the first ones of its range. */
    public static final int HOT_LOCKS_PER_SERVER = 4;

    private final Topology topology;
    private final int locksPerTransaction;
    private final double remoteProbability;
    private final double hotProbability;
    private final long[] hot;

    public SyntheticWorkload(Topology topology, int locksPerTransaction, double remoteProbability) {
        this(topology, locksPerTransaction, remoteProbability, 0);
    }

    /**
     * @param hotProbability the chance that a lock is a hot one, in [0, 1] (see the class comment)
     */
    public SyntheticWorkload(
            Topology topology, int locksPerTransaction, double remoteProbability, double hotProbability) {
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
        if (!(hotProbability >= 0 && hotProbability <= 1)) {
            throw new IllegalArgumentException("hotProbability must be in [0, 1]: " + hotProbability);
        }
        if (hotProbability > 0 && topology.locksPerServer() < 2 * HOT_LOCKS_PER_SERVER) {
            throw new IllegalArgumentException(
                    "hot locks need at least " + 2 * HOT_LOCKS_PER_SERVER + " locks per server: " + topology);
        }
        this.locksPerTransaction = locksPerTransaction;
        this.remoteProbability = remoteProbability;
        this.hotProbability = hotProbability;
        this.hot = new long[locksPerTransaction];
    }

    /**
     * The chance that a transaction of {@code locks} locks holds an X lock on another node, so that its agent runs 2PC:
     * Eq. 5.2 over the locks that are both remote and X (one of the five modes drawn).
     */
    public static double voteProbability(double remoteProbability, int locks) {
        return 1 - Math.pow(1 - remoteProbability / MODES.length, locks);
    }

    private static int hotLocks(Topology topology) {
        return topology.servers() * HOT_LOCKS_PER_SERVER;
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

    public double hotProbability() {
        return hotProbability;
    }

    public int locksPerTransaction() {
        return locksPerTransaction;
    }

    @Override
    public void next(int agent, SplittableRandom random, LockList into) {
        into.clear(0);
        if (hotProbability > 0) {
            addHotLocks(random, into);
        }
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

    /** Draws how many of the transaction's locks are hot, picks that many distinct hot locks, adds them ascending. */
    private void addHotLocks(SplittableRandom random, LockList into) {
        int count = 0;
        for (int i = 0; i < locksPerTransaction; i++) {
            if (random.nextDouble() < hotProbability) {
                count++;
            }
        }
        count = Math.min(count, hotLocks(topology)); // a transaction may hold every hot lock, not more
        int drawn = 0;
        while (drawn < count) {
            int server = random.nextInt(topology.servers());
            long lockId = topology.firstLock(server) + random.nextInt(HOT_LOCKS_PER_SERVER);
            boolean duplicate = false;
            for (int j = 0; j < drawn; j++) {
                duplicate |= hot[j] == lockId;
            }
            if (duplicate) {
                continue;
            }
            int at = drawn;
            while (at > 0 && hot[at - 1] > lockId) { // insertion sort: ascending
                hot[at] = hot[at - 1];
                at--;
            }
            hot[at] = lockId;
            drawn++;
        }
        for (int i = 0; i < count; i++) {
            into.add(hot[i], MODES[random.nextInt(MODES.length)]);
        }
    }
}
