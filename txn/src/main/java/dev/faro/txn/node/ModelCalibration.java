package dev.faro.txn.node;

import dev.faro.txn.lock.LockMode;
import dev.faro.txn.model.TransactionModel;

/**
 * The micro-benchmarks that feed ETH19's transaction model (§5.3, Eqs. 5.1–5.4; the digest's §10.1 item 3), measured
 * on the agents of the running lock manager, so in the same run and under the same scheduling as the load they predict:
 *
 * <ul>
 *   <li><b>local lock</b> and <b>clean-up</b>: transactions of {@value #LOCKS} X locks on a server of the agent's own
 *       node, committed (no vote: nothing remote); the lock latency is request written to answer read, the clean-up is
 *       the end-of-transaction message until its acknowledgment;
 *   <li><b>remote lock</b> and <b>vote</b>: transactions of {@value #LOCKS} − 1 local X locks and one X lock on the next
 *       node's server, so 2PC runs with two participants (the common vote at low remote ratios).
 * </ul>
 *
 * The two kinds run as two phases ({@link #measure}), on every agent of a node at once ({@link #measureAll}, as the load
 * runs them; {@code faro bench locks} runs {@link #measure} on each agent's own thread, the one that then carries the
 * load, so that calibration and load see the same placement on the cores). Lock ids are the top of each server's range, offset by the agent's index, so that agents calibrating at
 * the same time rarely meet. The means are the model's inputs: a message is half a lock's latency (the thesis's t_comm
 * includes the server's processing), a vote and a clean-up are taken as measured; the queue time is the workload's
 * ({@code t_queue(w)}), not a micro-benchmark's.
 *
 * @param localLockMicros mean latency of a lock on the agent's own node, µs
 * @param remoteLockMicros mean latency of a lock on another node, µs (the local one on a single node)
 * @param voteMicros mean 2PC vote with two participants, µs (0 on a single node)
 * @param cleanUpMicros mean end of an all-local transaction, µs
 * @param localLockMedianMicros median latency of a local lock, µs (to compare with the round trip, also a median)
 * @param remoteLockMedianMicros median latency of a remote lock, µs (the local one on a single node)
 */
public record ModelCalibration(
        double localLockMicros,
        double remoteLockMicros,
        double voteMicros,
        double cleanUpMicros,
        double localLockMedianMicros,
        double remoteLockMedianMicros) {

    /** The model's inputs only (no medians). */
    public ModelCalibration(double localLockMicros, double remoteLockMicros, double voteMicros, double cleanUpMicros) {
        this(localLockMicros, remoteLockMicros, voteMicros, cleanUpMicros, Double.NaN, Double.NaN);
    }

    /** Locks per calibration transaction, as the synthetic workload's. */
    public static final int LOCKS = 10;

    /**
     * The most a warm-up or measured run of a phase takes: it stops after its rounds or this long, whichever comes
     * first (at least one round), so that a loaded host does not stretch the calibration past the task's deadline.
     */
    static final long RUN_BUDGET_NS = 500_000_000L;

    /**
     * Runs the two phases on {@code agent} ({@code rounds} all-local transactions, then {@code rounds} mixed ones, each
     * after as many for warm-up, each run cut at {@link #RUN_BUDGET_NS}); leaves the agent's statistics reset. Outside a transaction; the servers must be
     * running.
     *
     * <p>The phases do not alternate: an all-local transaction run between mixed ones waits for its locks right after a
     * vote's or a remote lock's wait, while the sweep's all-local transactions follow each other. On 2 cores shared by
     * every role, that mix gave a local-lock mean of 19 µs (median 0.99 µs) against about 2 µs in the 0 % sweep.
     *
     * @throws IllegalStateException when a calibration lock is refused (another agent held it past the lock timeout)
     */
    public static ModelCalibration measure(TransactionAgent agent, int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be positive: " + rounds);
        }
        Topology topology = agent.topology();
        int home = topology.nodeOfAgent(agent.index());
        int localServer = topology.server(home, agent.index() % topology.serversPerNode());
        int remoteServer = topology.nodes() < 2
                ? localServer
                : topology.server((home + 1) % topology.nodes(), agent.index() % topology.serversPerNode());

        runLocal(agent, rounds, localServer); // warm-up
        agent.resetStatistics();
        runLocal(agent, rounds, localServer);
        AgentStatistics local = agent.statistics();
        double localMean = local.meanLocalLockMicros();
        double localMedian = agent.localLockLatencies().getValueAtPercentile(50) / 1e3;
        double cleanUp = local.meanCleanUpMicros();
        agent.resetStatistics();

        runMixed(agent, rounds, localServer, remoteServer); // warm-up
        agent.resetStatistics();
        runMixed(agent, rounds, localServer, remoteServer);
        AgentStatistics mixed = agent.statistics();
        boolean remote = mixed.remoteLocks > 0;
        ModelCalibration calibration = new ModelCalibration(
                localMean,
                remote ? mixed.meanRemoteLockMicros() : localMean,
                mixed.meanVoteMicros(),
                cleanUp,
                localMedian,
                remote ? agent.remoteLockLatencies().getValueAtPercentile(50) / 1e3 : localMedian);
        agent.resetStatistics();
        return calibration;
    }

    /**
     * Runs {@link #measure} on every agent at once, each on a thread of its own, as the load runs them (so the
     * micro-benchmarks share the cores as the workload's agents do); returns the means over the agents.
     *
     * @throws IllegalStateException when an agent's calibration failed
     */
    public static ModelCalibration measureAll(java.util.List<TransactionAgent> agents, int rounds)
            throws InterruptedException {
        if (agents.size() == 1) {
            return measure(agents.getFirst(), rounds);
        }
        ModelCalibration[] results = new ModelCalibration[agents.size()];
        Throwable[] failures = new Throwable[agents.size()];
        Thread[] threads = new Thread[agents.size()];
        for (int i = 0; i < threads.length; i++) {
            int at = i;
            threads[i] = Thread.ofPlatform()
                    .name("faro-txn-calibration-" + agents.get(i).index())
                    .start(() -> {
                        try {
                            results[at] = measure(agents.get(at), rounds);
                        } catch (Throwable t) {
                            failures[at] = t;
                        }
                    });
        }
        for (Thread thread : threads) {
            thread.join();
        }
        for (Throwable failure : failures) {
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failure != null) {
                throw new IllegalStateException("model calibration failed: " + failure, failure);
            }
        }
        return mean(results);
    }

    /** The mean of every field over {@code calibrations}. */
    public static ModelCalibration mean(ModelCalibration... calibrations) {
        double[] sums = new double[6];
        for (ModelCalibration c : calibrations) {
            sums[0] += c.localLockMicros;
            sums[1] += c.remoteLockMicros;
            sums[2] += c.voteMicros;
            sums[3] += c.cleanUpMicros;
            sums[4] += c.localLockMedianMicros;
            sums[5] += c.remoteLockMedianMicros;
        }
        int n = calibrations.length;
        return new ModelCalibration(sums[0] / n, sums[1] / n, sums[2] / n, sums[3] / n, sums[4] / n, sums[5] / n);
    }

    /** The model of Eq. 5.3 with these latencies and the workload's queue time per request. */
    public TransactionModel model(double queueMicros) {
        return new TransactionModel(localLockMicros / 2, remoteLockMicros / 2, queueMicros, voteMicros, cleanUpMicros);
    }

    /** All-local transactions of {@value #LOCKS} X locks, committed without a vote. */
    private static void runLocal(TransactionAgent agent, int rounds, int localServer) {
        Topology topology = agent.topology();
        long deadline = System.nanoTime() + RUN_BUDGET_NS;
        for (int round = 0; round < rounds && (round == 0 || System.nanoTime() - deadline < 0); round++) {
            agent.begin(round);
            for (int i = 0; i < LOCKS; i++) {
                require(agent, agent.lock(lockId(topology, localServer, agent.index(), i), LockMode.X));
            }
            agent.commit(); // nothing remote: no vote, only the end of transaction
        }
    }

    /** Transactions of {@value #LOCKS} − 1 local X locks and one remote X lock: a vote with two participants. */
    private static void runMixed(TransactionAgent agent, int rounds, int localServer, int remoteServer) {
        Topology topology = agent.topology();
        long deadline = System.nanoTime() + RUN_BUDGET_NS;
        for (int round = 0; round < rounds && (round == 0 || System.nanoTime() - deadline < 0); round++) {
            agent.begin(round);
            for (int i = 0; i < LOCKS - 1; i++) {
                require(agent, agent.lock(lockId(topology, localServer, agent.index(), i), LockMode.X));
            }
            require(agent, agent.lock(lockId(topology, remoteServer, agent.index(), LOCKS), LockMode.X));
            agent.commit();
        }
    }

    private static long lockId(Topology topology, int server, int agent, int i) {
        long offset = ((long) agent * (LOCKS + 1) + i) % topology.locksPerServer();
        return topology.firstLock(server) + topology.locksPerServer() - 1 - offset;
    }

    private static void require(TransactionAgent agent, boolean granted) {
        if (!granted) {
            agent.abort();
            throw new IllegalStateException(
                    "model calibration: agent " + agent.index() + "'s lock was refused (is other load running?)");
        }
    }
}
