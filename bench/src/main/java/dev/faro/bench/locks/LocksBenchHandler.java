package dev.faro.bench.locks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.txn.node.AgentStatistics;
import dev.faro.txn.node.CpuAffinity;
import dev.faro.txn.node.LockManagerNode;
import dev.faro.txn.node.LockManagerOptions;
import dev.faro.txn.node.LockServer;
import dev.faro.txn.node.ModelCalibration;
import dev.faro.txn.node.Topology;
import dev.faro.txn.node.TransactionAgent;
import dev.faro.txn.workload.LockLevelStatistics;
import dev.faro.txn.workload.Workload;
import dev.faro.txn.workload.WorkloadRunner;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * Cluster task {@value #TYPE}: one {@link LocksCase} on this node. Opens this node's lock servers and agents on the
 * worker's fabric, connects them to every other node's through the task's all-gather (the runtime's rounds are the
 * start and stop barriers), then runs the point on one thread per agent ({@link AgentPhases}: the round trip through
 * the mailboxes, the model's micro-benchmarks ({@link ModelCalibration}) and the workload's warm-up and counted
 * duration, in that order on the same threads), waits until every node's agents are done (its servers keep serving
 * meanwhile), and replies with the merged counters.
 *
 * <p>Coordination code around the agents' data-path loops. An agent's failure (a lost server) fails the task with its
 * one-line message.
 */
public final class LocksBenchHandler implements TaskHandler {

    /** Local and mixed transactions of the model's micro-benchmarks per agent and point: 500 for 2,000 pings. */
    static int calibrationRounds(LocksCase lockCase) {
        return Math.max(20, lockCase.pings() / 4);
    }

    /** The task type. */
    public static final String TYPE = "bench.locks";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws Exception {
        LocksCase lockCase = LocksCase.fromJson(payload);
        Topology topology = lockCase.topology();
        if (topology.nodes() != context.nodes()) {
            throw new IllegalArgumentException(
                    "case for " + topology.nodes() + " nodes on a round of " + context.nodes());
        }
        int node = context.nodeIndex();
        LockManagerOptions options = lockCase.options();
        if (lockCase.sharedHost()) {
            options = options.withCpus(CpuAffinity.shareOf(CpuAffinity.allowed(), node, topology.nodes()));
        }
        try (LockManagerNode manager = LockManagerNode.open(context.fabric(), topology, node, options)) {
            manager.connect(context.exchange().allGather("txn.addresses", manager.addresses()));
            manager.start();
            context.exchange().allGather("txn.connected", new byte[0]);
            AgentPhases phases = new AgentPhases(context, manager, lockCase);
            phases.run(); // round trips, the model's micro-benchmarks and the load, on the agents' own threads
            context.exchange().allGather("txn.done", new byte[0]);
            long localPing = phases.pings()[0];
            long remotePing = phases.pings()[1];
            ModelCalibration calibration = phases.calibration();
            long elapsedNs = phases.countedNs();
            Workload workload = lockCase.newWorkload();
            long[] committedByType = new long[workload.transactionTypes().size()];
            LockLevelStatistics levels =
                    new LockLevelStatistics(WorkloadRunner.levelNames(workload).size());
            for (WorkloadRunner runner : phases.runners()) {
                for (int type = 0; type < committedByType.length; type++) {
                    committedByType[type] += runner.committed(type);
                }
                levels.add(runner.lockLevels());
            }

            AgentStatistics total = new AgentStatistics();
            manager.agents().forEach(agent -> total.add(agent.statistics()));
            Histogram local = new Histogram(2);
            Histogram remote = new Histogram(2);
            for (TransactionAgent agent : manager.agents()) {
                local.add(agent.localLockLatencies());
                remote.add(agent.remoteLockLatencies());
            }
            long serverRequests = 0;
            long serverProcessingNs = 0;
            for (LockServer server : manager.servers()) {
                serverRequests += server.lockRequests();
                serverProcessingNs += server.processingNs();
            }
            ObjectNode reply = JsonNodeFactory.instance.objectNode();
            ArrayNode statistics = reply.putArray("statistics");
            Arrays.stream(total.values()).forEach(statistics::add);
            ArrayNode levelValues = reply.putArray("lockLevels");
            Arrays.stream(levels.values()).forEach(levelValues::add);
            ArrayNode types = reply.putArray("committedByType");
            Arrays.stream(committedByType).forEach(types::add);
            reply.put("elapsedNs", elapsedNs)
                    .put("pingLocalNs", localPing)
                    .put("pingRemoteNs", remotePing)
                    .put("calibrationLocalLockUs", calibration.localLockMicros())
                    .put("calibrationRemoteLockUs", calibration.remoteLockMicros())
                    .put("calibrationVoteUs", calibration.voteMicros())
                    .put("calibrationCleanUpUs", calibration.cleanUpMicros())
                    .put("calibrationLocalLockMedianUs", calibration.localLockMedianMicros())
                    .put("calibrationRemoteLockMedianUs", calibration.remoteLockMedianMicros())
                    .put("serverRequests", serverRequests)
                    .put("serverProcessingNs", serverProcessingNs)
                    .put("localLockMedianNs", local.getTotalCount() == 0 ? -1 : local.getValueAtPercentile(50))
                    .put("localLockP99Ns", local.getTotalCount() == 0 ? -1 : local.getValueAtPercentile(99))
                    .put("remoteLockMedianNs", remote.getTotalCount() == 0 ? -1 : remote.getValueAtPercentile(50))
                    .put("remoteLockP99Ns", remote.getTotalCount() == 0 ? -1 : remote.getValueAtPercentile(99));
            return TaskReply.of(reply);
        }
    }
}
