package dev.faro.txn.node;

import dev.faro.txn.lock.LockMode;
import dev.faro.txn.model.TransactionModel;

/**
 * The micro-benchmarks that feed ETH19's transaction model (§5.3, Eqs. 5.1–5.4; the digest's §10.1 item 3), measured
 * on one agent of the running lock manager, so in the same run and under the same scheduling as the load they predict:
 *
 * <ul>
 *   <li><b>local lock</b> and <b>clean-up</b>: transactions of {@value #LOCKS} X locks on a server of the agent's own
 *       node, committed (no vote: nothing remote); the lock latency is request written to answer read, the clean-up is
 *       the end-of-transaction message until its acknowledgment;
 *   <li><b>remote lock</b> and <b>vote</b>: transactions of {@value #LOCKS} − 1 local X locks and one X lock on the next
 *       node's server, so 2PC runs with two participants (the common vote at low remote ratios).
 * </ul>
 *
 * Lock ids are the top of each server's range, offset by the agent's index, so that agents calibrating at the same
 * time on several nodes rarely meet. The means are the model's inputs: a message is half a lock's latency (the
 * thesis's t_comm includes the server's processing), a vote and a clean-up are taken as measured; the queue time is the
 * workload's ({@code t_queue(w)}), not a micro-benchmark's.
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
     * Runs {@code rounds} local and {@code rounds} mixed transactions on {@code agent} after as many of each for
     * warm-up; leaves the agent's statistics reset. Outside a transaction; the servers must be running.
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
        run(agent, rounds, localServer, remoteServer); // warm-up
        agent.resetStatistics();
        long cleanUpNs = run(agent, rounds, localServer, remoteServer);
        AgentStatistics statistics = agent.statistics();
        double localMedian = agent.localLockLatencies().getValueAtPercentile(50) / 1e3;
        ModelCalibration calibration = new ModelCalibration(
                statistics.meanLocalLockMicros(),
                statistics.remoteLocks == 0 ? statistics.meanLocalLockMicros() : statistics.meanRemoteLockMicros(),
                statistics.meanVoteMicros(),
                cleanUpNs / 1e3 / rounds,
                localMedian,
                statistics.remoteLocks == 0
                        ? localMedian
                        : agent.remoteLockLatencies().getValueAtPercentile(50) / 1e3);
        agent.resetStatistics();
        return calibration;
    }

    /** The model of Eq. 5.3 with these latencies and the workload's queue time per request. */
    public TransactionModel model(double queueMicros) {
        return new TransactionModel(localLockMicros / 2, remoteLockMicros / 2, queueMicros, voteMicros, cleanUpMicros);
    }

    /** Runs the rounds; returns the summed clean-up time of the all-local transactions, ns. */
    private static long run(TransactionAgent agent, int rounds, int localServer, int remoteServer) {
        Topology topology = agent.topology();
        long cleanUpNs = 0;
        for (int round = 0; round < rounds; round++) {
            agent.begin(round);
            for (int i = 0; i < LOCKS; i++) {
                require(agent, agent.lock(lockId(topology, localServer, agent.index(), i), LockMode.X));
            }
            long start = System.nanoTime();
            agent.commit(); // nothing remote: no vote, only the end of transaction
            cleanUpNs += System.nanoTime() - start;

            agent.begin(round);
            for (int i = 0; i < LOCKS - 1; i++) {
                require(agent, agent.lock(lockId(topology, localServer, agent.index(), i), LockMode.X));
            }
            require(agent, agent.lock(lockId(topology, remoteServer, agent.index(), LOCKS), LockMode.X));
            agent.commit();
        }
        return cleanUpNs;
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
