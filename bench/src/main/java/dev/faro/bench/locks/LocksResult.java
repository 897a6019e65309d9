package dev.faro.bench.locks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.txn.node.AgentStatistics;
import dev.faro.txn.node.ModelCalibration;
import dev.faro.txn.workload.LockLevelStatistics;
import java.util.List;

/**
 * The measured outcome of one {@link LocksCase}, merged over its nodes: throughput (each node's committed
 * transactions over its own counted time, summed), the agents' latency breakdown, and the round trips through the
 * mailboxes measured before the load (medians, averaged over nodes).
 *
 * @param lockCase what ran
 * @param statistics every agent's counters, summed
 * @param committedByType committed transactions per workload transaction type
 * @param transactionsPerSecond committed transactions per second, all nodes
 * @param typePerSecond committed transactions per second per type, all nodes
 * @param lockRequestsPerSecond lock requests answered per second, all nodes
 * @param pingLocalMicros round trip to a server on the same node, µs
 * @param pingRemoteMicros round trip to a server on another node, µs (NaN on one node)
 * @param serverProcessingMicros the servers' own processing per request answered at once, µs
 * @param localLockMedianMicros median local lock acquisition, µs (the nodes' medians averaged; NaN when none)
 * @param localLockP99Micros 99th percentile of local lock acquisitions, µs (averaged over nodes)
 * @param remoteLockMedianMicros median remote lock acquisition, µs (NaN when none)
 * @param remoteLockP99Micros 99th percentile of remote lock acquisitions, µs
 * @param calibration the model's micro-benchmarks of this run (means over nodes), or null when not measured
 * @param lockLevels the lock requests by the workload's lock level, all nodes, or null when not measured
 */
public record LocksResult(
        LocksCase lockCase,
        AgentStatistics statistics,
        long[] committedByType,
        double transactionsPerSecond,
        double[] typePerSecond,
        double lockRequestsPerSecond,
        double pingLocalMicros,
        double pingRemoteMicros,
        double serverProcessingMicros,
        double localLockMedianMicros,
        double localLockP99Micros,
        double remoteLockMedianMicros,
        double remoteLockP99Micros,
        ModelCalibration calibration,
        LockLevelStatistics lockLevels) {

    /** A result without the model's micro-benchmarks. */
    public LocksResult(
            LocksCase lockCase,
            AgentStatistics statistics,
            long[] committedByType,
            double transactionsPerSecond,
            double[] typePerSecond,
            double lockRequestsPerSecond,
            double pingLocalMicros,
            double pingRemoteMicros,
            double serverProcessingMicros,
            double localLockMedianMicros,
            double localLockP99Micros,
            double remoteLockMedianMicros,
            double remoteLockP99Micros) {
        this(
                lockCase,
                statistics,
                committedByType,
                transactionsPerSecond,
                typePerSecond,
                lockRequestsPerSecond,
                pingLocalMicros,
                pingRemoteMicros,
                serverProcessingMicros,
                localLockMedianMicros,
                localLockP99Micros,
                remoteLockMedianMicros,
                remoteLockP99Micros,
                null,
                null);
    }

    /** Merges the replies of every node of {@code lockCase}. */
    static LocksResult merge(LocksCase lockCase, List<JsonNode> replies) {
        AgentStatistics total = new AgentStatistics();
        long[] byType = null;
        double[] typeRates = null;
        double transactionsPerSecond = 0;
        double lockRequestsPerSecond = 0;
        double localPing = 0;
        double remotePing = 0;
        long serverRequests = 0;
        long serverProcessingNs = 0;
        LockLevelStatistics levels = null;
        for (JsonNode reply : replies) {
            JsonNode levelValues = reply.path("lockLevels");
            if (levelValues.size() > 0) {
                long[] values = new long[levelValues.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = levelValues.path(i).asLong();
                }
                LockLevelStatistics node = LockLevelStatistics.of(values);
                if (levels == null) {
                    levels = node;
                } else {
                    levels.add(node);
                }
            }
            long[] values = new long[AgentStatistics.FIELDS.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = reply.path("statistics").path(i).asLong();
            }
            AgentStatistics node = AgentStatistics.of(values);
            total.add(node);
            double seconds = reply.path("elapsedNs").asLong() / 1e9;
            transactionsPerSecond += node.committed / seconds;
            lockRequestsPerSecond += node.lockRequests / seconds;
            JsonNode types = reply.path("committedByType");
            if (byType == null) {
                byType = new long[types.size()];
                typeRates = new double[types.size()];
            }
            for (int type = 0; type < byType.length; type++) {
                byType[type] += types.path(type).asLong();
                typeRates[type] += types.path(type).asLong() / seconds;
            }
            localPing += reply.path("pingLocalNs").asLong() / 1e3 / replies.size();
            remotePing += reply.path("pingRemoteNs").asLong() / 1e3 / replies.size();
            serverRequests += reply.path("serverRequests").asLong();
            serverProcessingNs += reply.path("serverProcessingNs").asLong();
        }
        return new LocksResult(
                lockCase,
                total,
                byType,
                transactionsPerSecond,
                typeRates,
                lockRequestsPerSecond,
                localPing,
                lockCase.nodes() < 2 ? Double.NaN : remotePing,
                serverRequests == 0 ? 0 : serverProcessingNs / 1e3 / serverRequests,
                meanMicros(replies, "localLockMedianNs"),
                meanMicros(replies, "localLockP99Ns"),
                meanMicros(replies, "remoteLockMedianNs"),
                meanMicros(replies, "remoteLockP99Ns"),
                new ModelCalibration(
                        mean(replies, "calibrationLocalLockUs"),
                        mean(replies, "calibrationRemoteLockUs"),
                        mean(replies, "calibrationVoteUs"),
                        mean(replies, "calibrationCleanUpUs"),
                        mean(replies, "calibrationLocalLockMedianUs"),
                        mean(replies, "calibrationRemoteLockMedianUs")),
                levels);
    }

    private static double mean(List<JsonNode> replies, String field) {
        double sum = 0;
        for (JsonNode reply : replies) {
            sum += reply.path(field).asDouble();
        }
        return sum / replies.size();
    }

    /** The mean over the nodes that have {@code field} (>= 0), in µs; NaN when none has. */
    private static double meanMicros(List<JsonNode> replies, String field) {
        double sum = 0;
        int count = 0;
        for (JsonNode reply : replies) {
            long ns = reply.path(field).asLong(-1);
            if (ns >= 0) {
                sum += ns / 1e3;
                count++;
            }
        }
        return count == 0 ? Double.NaN : sum / count;
    }

    /** Mean locks requested per transaction that ended. */
    public double locksPerTransaction() {
        return statistics.transactions() == 0 ? 0 : (double) statistics.lockRequests / statistics.transactions();
    }

    /** The share of ended transactions that aborted, in percent. */
    public double abortPercent() {
        return statistics.transactions() == 0 ? 0 : 100.0 * statistics.aborted / statistics.transactions();
    }

    /** Concurrent transactions: one per agent. */
    public int concurrentTransactions() {
        return lockCase.nodes() * lockCase.agentsPerNode();
    }
}
