package dev.faro.bench.locks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.fabric.FaroException;
import dev.faro.txn.node.AgentStatistics;
import dev.faro.txn.node.LockManagerNode;
import dev.faro.txn.node.LockServer;
import dev.faro.txn.node.ModelCalibration;
import dev.faro.txn.node.Topology;
import dev.faro.txn.node.TransactionAgent;
import dev.faro.txn.workload.LockLevelStatistics;
import dev.faro.txn.workload.Workload;
import dev.faro.txn.workload.WorkloadRunner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Cluster task {@value #TYPE}: one {@link LocksCase} on this node. Opens this node's lock servers and agents on the
 * worker's fabric, connects them to every other node's through the task's all-gather (the runtime's rounds are the
 * start and stop barriers), measures the round trip through the mailboxes (one agent, quiet, to a local and to a
 * remote server), runs the model's micro-benchmarks ({@link ModelCalibration}) on the same agent, runs the workload on one thread per agent for the warm-up and the counted duration, waits until
 * every node's agents are done (its servers keep serving meanwhile), and replies with the merged counters.
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
        try (LockManagerNode manager = LockManagerNode.open(context.fabric(), topology, node, lockCase.options())) {
            manager.connect(context.exchange().allGather("txn.addresses", manager.addresses()));
            manager.start();
            context.exchange().allGather("txn.connected", new byte[0]);
            TransactionAgent first = manager.agents().getFirst();
            long[] pings = medianPings(
                    first,
                    topology.server(node, 0),
                    topology.nodes() < 2 ? -1 : topology.server((node + 1) % topology.nodes(), 0),
                    lockCase.pings());
            long localPing = pings[0];
            long remotePing = pings[1];
            context.exchange().allGather("txn.pinged", new byte[0]);
            // the model's micro-benchmarks, every agent of every node at once, each on its own thread (as the load)
            ModelCalibration calibration = ModelCalibration.measureAll(manager.agents(), calibrationRounds(lockCase));
            context.exchange().allGather("txn.calibrated", new byte[0]);

            Workload workload = lockCase.newWorkload();
            long[] committedByType = new long[workload.transactionTypes().size()];
            LockLevelStatistics levels =
                    new LockLevelStatistics(WorkloadRunner.levelNames(workload).size());
            long elapsedNs = runLoad(context, manager, lockCase, committedByType, levels);
            context.exchange().allGather("txn.done", new byte[0]);

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

    /**
     * The medians of {@code count} round trips from {@code agent} to a local and to a remote server (-1 for none),
     * after {@code count} warm-up rounds to both: local and remote alternate, so neither is measured on a colder JIT or
     * in a different moment of the machine's load than the other. A round trip between threads of one process (agent and
     * server of this node) still reads about 25 µs on a loaded 2-core host against 2.5 µs between processes: in one JVM
     * it is the same to another fabric node, and spinning instead of parking does not change it, so it is the
     * scheduling of two threads of one process, not the fabric or the JIT.
     */
    private static long[] medianPings(TransactionAgent agent, int localServer, int remoteServer, int count) {
        if (count == 0) {
            return new long[] {-1, -1};
        }
        long[] local = new long[count];
        long[] remote = new long[count];
        for (int i = 0; i < count; i++) {
            agent.ping(localServer);
            if (remoteServer >= 0) {
                agent.ping(remoteServer);
            }
        }
        for (int i = 0; i < count; i++) {
            local[i] = agent.ping(localServer);
            if (remoteServer >= 0) {
                remote[i] = agent.ping(remoteServer);
            }
        }
        agent.resetStatistics();
        Arrays.sort(local);
        Arrays.sort(remote);
        return new long[] {local[count / 2], remoteServer >= 0 ? remote[count / 2] : -1};
    }

    /** Runs every agent on its own thread; returns the counted time. */
    private static long runLoad(
            WorkerContext context,
            LockManagerNode manager,
            LocksCase lockCase,
            long[] committedByType,
            LockLevelStatistics levels)
            throws InterruptedException {
        long start = System.nanoTime();
        long countFrom = start + lockCase.warmupMs() * 1_000_000;
        long end = countFrom + lockCase.durationMs() * 1_000_000;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        List<WorkloadRunner> runners = new ArrayList<>();
        for (TransactionAgent agent : manager.agents()) {
            WorkloadRunner runner = new WorkloadRunner(agent, lockCase.newWorkload(), 17);
            runners.add(runner);
            threads.add(Thread.ofPlatform()
                    .name("faro-txn-agent-" + agent.index())
                    .start(() -> {
                        try {
                            boolean counting = false;
                            while (failure.get() == null && !context.isCancelled()) {
                                long now = System.nanoTime();
                                if (!counting && now - countFrom >= 0) {
                                    runner.reset();
                                    counting = true;
                                }
                                if (now - end >= 0) {
                                    break;
                                }
                                runner.runOne();
                            }
                        } catch (Throwable t) {
                            failure.compareAndSet(null, t);
                        }
                    }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        long elapsed = System.nanoTime() - countFrom;
        context.throwIfCancelled();
        Throwable failed = failure.get();
        if (failed != null) {
            manager.throwIfServerFailed(); // the root cause when it is one of this node's servers
            if (failed instanceof FaroException faro) {
                throw faro;
            }
            throw new IllegalStateException("a transaction agent failed: " + failed, failed);
        }
        for (WorkloadRunner runner : runners) {
            for (int type = 0; type < committedByType.length; type++) {
                committedByType[type] += runner.committed(type);
            }
            levels.add(runner.lockLevels());
        }
        return elapsed;
    }
}
