package dev.faro.txn.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.txn.workload.SyntheticWorkload;
import dev.faro.txn.workload.WorkloadRunner;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The latency breakdown's queue time is real: agents of two nodes meeting on the synthetic workload's hot locks wait in
 * the lock's waiting group, and their responses say so.
 */
class ContentionTest {

    @Test
    void hotLocksShowQueueTimeInTheBreakdown() throws Exception {
        AgentStatistics contended = run(0.5);
        assertThat(contended.queuedNs).as("queue time under contention").isPositive();
        assertThat(contended.meanQueueMicros()).isPositive();
        assertThat(contended.committed).isPositive();
    }

    private static AgentStatistics run(double hotProbability) throws Exception {
        Topology topology = new Topology(2, 1, 2, 1 << 12); // 8 hot locks, 4 agents
        LockManagerOptions options = LockManagerOptions.defaults();
        AgentStatistics total = new AgentStatistics();
        try (LocalLockManager manager = new LocalLockManager("shm", topology, options)) {
            AgentThreads.runAll(manager.agents(), agent -> {
                WorkloadRunner runner =
                        new WorkloadRunner(agent, new SyntheticWorkload(topology, 6, 0.1, hotProbability), 5);
                for (int i = 0; i < 100; i++) {
                    runner.runOne();
                }
            });
            List<TransactionAgent> agents = manager.agents();
            agents.forEach(agent -> total.add(agent.statistics()));
            manager.stopServers();
            for (LockServer server : manager.servers()) {
                assertThat(server.table().isIdle()).isTrue();
                assertThat(server.failure()).isNull();
            }
        }
        return total;
    }
}
