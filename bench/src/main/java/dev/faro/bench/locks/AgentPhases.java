package dev.faro.bench.locks;

import dev.faro.cluster.worker.WorkerContext;
import dev.faro.fabric.FaroException;
import dev.faro.txn.node.LockManagerNode;
import dev.faro.txn.node.ModelCalibration;
import dev.faro.txn.node.Topology;
import dev.faro.txn.node.TransactionAgent;
import dev.faro.txn.workload.WorkloadRunner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Phaser;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One point of {@code faro bench locks} on this node's agents: each agent has one thread for the whole point, which
 * runs, in order, the round trips through the mailboxes (the node's first agent only), the model's micro-benchmarks
 * ({@link ModelCalibration#measure}) and the load (warm-up, then the counted time). The model is therefore calibrated
 * on the threads that then carry the load it predicts, with their placement on the cores and their place in the
 * scheduler; a calibration on other threads (the task's thread, or threads of its own) met another placement than the
 * load's, and with more threads than cores the placement decides how long a round trip takes.
 *
 * <p>Between the phases every agent of every node waits: once all of this node's agents arrived, the task's thread
 * meets the other nodes (an all-gather) and lets them go on. An agent's failure ends every wait of the point.
 *
 * <p>Coordination code around the agents' data-path loops.
 */
final class AgentPhases {

    /** The most the warm-up or the measured round trips take (see {@link #medianPings}). */
    static final long PING_BUDGET_NS = 500_000_000L;

    private final WorkerContext context;
    private final LockManagerNode manager;
    private final LocksCase lockCase;
    private final List<WorkloadRunner> runners = new ArrayList<>();
    private final ModelCalibration[] calibrations;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** The agents' threads and the task's thread; two phases per meeting (arrived, then released). */
    private final Phaser phaser;

    private final long[] countedNs;
    private long[] pings = {-1, -1};

    AgentPhases(WorkerContext context, LockManagerNode manager, LocksCase lockCase) {
        this.context = context;
        this.manager = manager;
        this.lockCase = lockCase;
        this.calibrations = new ModelCalibration[manager.agents().size()];
        this.countedNs = new long[manager.agents().size()];
        this.phaser = new Phaser(manager.agents().size() + 1);
        for (TransactionAgent agent : manager.agents()) {
            runners.add(new WorkloadRunner(agent, lockCase.newWorkload(), 17));
        }
    }

    /**
     * Runs the point: starts the agents' threads, meets the other nodes between the phases, and returns when every
     * agent stopped.
     *
     * @throws FaroException an agent's failure (a lost server), one line
     */
    void run() throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < runners.size(); i++) {
            int at = i;
            threads.add(Thread.ofPlatform()
                    .name("faro-txn-agent-" + manager.agents().get(i).index())
                    .start(() -> runAgent(at)));
        }
        try {
            meet("txn.pinged");
            meet("txn.calibrated");
        } finally {
            for (Thread thread : threads) {
                thread.join();
            }
        }
        context.throwIfCancelled();
        Throwable failed = failure.get();
        if (failed != null) {
            manager.throwIfServerFailed(); // the root cause when it is one of this node's servers
            if (failed instanceof FaroException faro) {
                throw faro;
            }
            throw new IllegalStateException("a transaction agent failed: " + failed, failed);
        }
    }

    /** The median round trips to a local and to a remote server, ns (-1 for none). */
    long[] pings() {
        return pings;
    }

    /** The model's micro-benchmarks, averaged over this node's agents. */
    ModelCalibration calibration() {
        return ModelCalibration.mean(calibrations);
    }

    /** The counted time of the load, ns (the longest of the agents'). */
    long countedNs() {
        return Arrays.stream(countedNs).max().orElse(0);
    }

    List<WorkloadRunner> runners() {
        return runners;
    }

    /** The task's thread: waits until this node's agents arrived, meets the other nodes, lets the agents go on. */
    private void meet(String name) {
        if (phaser.arriveAndAwaitAdvance() < 0) {
            return; // an agent failed
        }
        try {
            context.exchange().allGather(name, new byte[0]);
        } catch (RuntimeException e) {
            fail(e);
            throw e;
        }
        phaser.arriveAndAwaitAdvance();
    }

    /** An agent's thread: arrives and waits for the other nodes; false when the point failed. */
    private boolean arrive() {
        return phaser.arriveAndAwaitAdvance() >= 0 && phaser.arriveAndAwaitAdvance() >= 0;
    }

    private void fail(Throwable t) {
        failure.compareAndSet(null, t);
        phaser.forceTermination();
    }

    private void runAgent(int at) {
        WorkloadRunner runner = runners.get(at);
        TransactionAgent agent = manager.agents().get(at);
        try {
            manager.pinToCpus(); // where this node's servers run, when the nodes share the host
            if (at == 0) {
                pings = medianPings(agent, lockCase.pings());
            }
            if (!arrive()) {
                return;
            }
            calibrations[at] = ModelCalibration.measure(agent, LocksBenchHandler.calibrationRounds(lockCase));
            if (!arrive()) {
                return;
            }
            long start = System.nanoTime();
            long countFrom = start + lockCase.warmupMs() * 1_000_000;
            long end = countFrom + lockCase.durationMs() * 1_000_000;
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
            countedNs[at] = System.nanoTime() - countFrom;
        } catch (Throwable t) {
            fail(t);
        }
    }

    /**
     * The medians of up to {@code count} round trips from {@code agent} to a server of its node and to one of the next
     * node (-1 for none), after as many warm-up rounds to both: local and remote alternate, so neither is measured on a
     * colder JIT or in a different moment of the machine's load than the other. The warm-up and the measured rounds
     * each stop after {@link #PING_BUDGET_NS} (at least one round), as the model's micro-benchmarks do: on a loaded
     * host a round trip between cores can take milliseconds, and thousands of them would outlast the task.
     */
    private long[] medianPings(TransactionAgent agent, int count) {
        Topology topology = manager.topology();
        int node = manager.node();
        int localServer = topology.server(node, 0);
        int remoteServer = topology.nodes() < 2 ? -1 : topology.server((node + 1) % topology.nodes(), 0);
        if (count == 0) {
            return new long[] {-1, -1};
        }
        long[] local = new long[count];
        long[] remote = new long[count];
        long deadline = System.nanoTime() + PING_BUDGET_NS;
        for (int i = 0; i < count && (i == 0 || System.nanoTime() - deadline < 0); i++) {
            agent.ping(localServer);
            if (remoteServer >= 0) {
                agent.ping(remoteServer);
            }
        }
        int done = 0;
        deadline = System.nanoTime() + PING_BUDGET_NS;
        for (; done < count && (done == 0 || System.nanoTime() - deadline < 0); done++) {
            local[done] = agent.ping(localServer);
            if (remoteServer >= 0) {
                remote[done] = agent.ping(remoteServer);
            }
        }
        agent.resetStatistics();
        Arrays.sort(local, 0, done);
        Arrays.sort(remote, 0, done);
        return new long[] {local[done / 2], remoteServer >= 0 ? remote[done / 2] : -1};
    }
}
