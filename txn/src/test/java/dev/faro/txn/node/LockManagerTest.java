package dev.faro.txn.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.FaroException;
import dev.faro.txn.lock.LockMode;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lock manager over the {@code shm} fabric, nodes in this JVM: no incompatible grants under concurrent random load,
 * opposite-order deadlocks broken by the timeout, 2PC only for remote X locks, a killed agent's locks released, and no
 * lock left behind.
 */
class LockManagerTest {

    @Test
    void concurrentRandomLoadNeverGrantsIncompatibleLocks() throws Exception {
        Topology topology = new Topology(3, 1, 2, 4); // 12 hot locks, 6 agents
        LockManagerOptions options = LockManagerOptions.defaults().withLockTimeout(Duration.ofMillis(10));
        GrantObserver observer = new GrantObserver();
        try (LocalLockManager manager = new LocalLockManager("shm", topology, options)) {
            AgentThreads.runAll(manager.agents(), agent -> {
                SplittableRandom random = new SplittableRandom(agent.index() + 99);
                for (int transaction = 0; transaction < 300; transaction++) {
                    long id = agent.begin(transaction);
                    boolean all = true;
                    for (int i = 0; i < 4 && all; i++) {
                        long lockId = random.nextLong(topology.locks());
                        LockMode mode = LockMode.values()[1 + random.nextInt(LockMode.COUNT - 1)];
                        all = agent.lock(lockId, mode);
                        if (all) {
                            observer.granted(id, lockId, mode);
                        }
                    }
                    observer.released(id);
                    if (all) {
                        agent.commit();
                    } else {
                        agent.abort();
                    }
                }
            });
            assertNoLeaks(manager);
        }
        assertThat(observer.violations()).isEmpty();
        assertThat(observer.grants()).isGreaterThan(1_000);
    }

    @Test
    void oppositeOrderDeadlockEndsByTimeout() throws Exception {
        Topology topology = new Topology(2, 1, 1, 4);
        LockManagerOptions options = LockManagerOptions.defaults().withLockTimeout(Duration.ofMillis(100));
        try (LocalLockManager manager = new LocalLockManager("shm", topology, options)) {
            long first = 0; // on node 0
            long second = 4; // on node 1
            CyclicBarrier bothHoldOne = new CyclicBarrier(2);
            boolean[] secondGranted = new boolean[2];
            AgentThreads.runAll(manager.agents(), agent -> {
                int me = agent.index();
                agent.begin(me);
                assertThat(agent.lock(me == 0 ? first : second, LockMode.X)).isTrue();
                bothHoldOne.await(30, TimeUnit.SECONDS);
                secondGranted[me] = agent.lock(me == 0 ? second : first, LockMode.X);
                if (secondGranted[me]) {
                    assertThat(agent.commit()).isTrue();
                } else {
                    agent.abort();
                }
            });
            // Both waits may time out together (each server times out its own queue head), or one does and the other
            // transaction then gets its lock: never both granted, and both transactions end.
            assertThat(secondGranted[0] && secondGranted[1])
                    .as("both granted: no deadlock?")
                    .isFalse();
            long timeouts = manager.servers().stream()
                    .mapToLong(server -> server.table().timeouts())
                    .sum();
            assertThat(timeouts).isGreaterThanOrEqualTo(1);
            assertNoLeaks(manager);
        }
    }

    @Test
    void twoPhaseCommitOnlyWhenARemoteExclusiveLockIsHeld() throws Exception {
        Topology topology = new Topology(2, 1, 1, 8);
        try (LocalLockManager manager = new LocalLockManager("shm", topology, LockManagerOptions.defaults())) {
            TransactionAgent agent = manager.agents().get(0); // on node 0: locks 0-7 local, 8-15 remote
            agent.begin(1);
            assertThat(agent.lock(1, LockMode.X)).isTrue();
            assertThat(agent.lock(9, LockMode.S)).isTrue();
            assertThat(agent.commit()).isTrue();
            assertThat(agent.statistics().votes)
                    .as("local X and remote S: no vote")
                    .isZero();

            agent.begin(2);
            assertThat(agent.lock(1, LockMode.IX)).isTrue();
            assertThat(agent.lock(10, LockMode.X)).isTrue();
            assertThat(agent.commit()).isTrue();
            assertThat(agent.statistics().votes).isEqualTo(1);
            assertThat(agent.statistics().voteParticipants)
                    .as("both contacted servers vote")
                    .isEqualTo(2);
            assertThat(agent.statistics().cleanUps).isEqualTo(2);
            assertNoLeaks(manager);
        }
    }

    @Test
    void manyWritesToOneServerAreAppliedAtCommit() throws Exception {
        Topology topology = new Topology(1, 1, 1, 64);
        try (LocalLockManager manager = new LocalLockManager("shm", topology, LockManagerOptions.defaults())) {
            TransactionAgent agent = manager.agents().getFirst();
            agent.begin(1);
            for (long lock = 0; lock < 40; lock++) {
                assertThat(agent.lock(lock, LockMode.X)).isTrue();
                agent.write(lock, 1_000 + lock);
            }
            assertThat(agent.commit()).isTrue();
            assertNoLeaks(manager);
            for (int i = 0; i < 40; i++) {
                assertThat(manager.servers().getFirst().data().getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, i))
                        .isEqualTo(1_000 + i);
            }
        }
    }

    @Test
    void killedAgentsLocksAreReleasedAndWaitersEnd() throws Exception {
        Topology topology = new Topology(2, 1, 1, 4);
        LockManagerOptions options = LockManagerOptions.defaults()
                .withLockTimeout(Duration.ofMillis(50))
                .withProbeInterval(Duration.ofMillis(200));
        try (LocalLockManager manager = new LocalLockManager("shm", topology, options)) {
            TransactionAgent victim = manager.agents().get(0);
            TransactionAgent survivor = manager.agents().get(1);
            victim.begin(1);
            assertThat(victim.lock(0, LockMode.X)).isTrue();
            assertThat(victim.lock(5, LockMode.X)).isTrue();
            victim.close(); // dies holding two locks, on both nodes, without an end of transaction

            int attempts = 0;
            boolean granted = false;
            while (!granted) {
                assertThat(++attempts)
                        .as("the victim's locks are never released")
                        .isLessThan(500);
                survivor.begin(2);
                granted = survivor.lock(0, LockMode.X) && survivor.lock(5, LockMode.S);
                if (granted) {
                    survivor.commit();
                } else {
                    survivor.abort(); // refused by the timeout: the waiting transaction still ends
                }
            }
            assertThat(attempts)
                    .as("the first attempts wait behind the dead holder")
                    .isGreaterThan(1);
            assertThat(manager.servers())
                    .allSatisfy(server -> assertThat(server.abandonedAgents()).isEqualTo(1));
            assertNoLeaks(manager);
            assertThatThrownBy(() -> victim.begin(3))
                    .as("the closed agent itself is unusable")
                    .isInstanceOf(RuntimeException.class);
        }
    }

    @Test
    void aDeadServerIsAClearErrorNotAHang() throws Exception {
        Topology topology = new Topology(2, 1, 1, 4);
        LockManagerOptions options = LockManagerOptions.defaults();
        try (LocalLockManager manager = new LocalLockManager("shm", topology, options)) {
            TransactionAgent agent = manager.agents().get(0);
            manager.nodes().get(1).close(); // node 1's server and agent are gone
            agent.begin(1);
            assertThatThrownBy(() -> agent.lock(5, LockMode.X))
                    .isInstanceOf(FaroException.class)
                    .hasMessageContaining("lock server 1 (node 1)");
        }
    }

    @Test
    @Timeout(value = 15, unit = TimeUnit.SECONDS) // well below the 60 s response timeout: the notice, not the timeout
    void aServerThreadThatThrowsFailsTheWaitingAgentsAtOnceNamingIt() throws Exception {
        Topology topology = new Topology(2, 1, 1, 4);
        LockManagerOptions options = LockManagerOptions.defaults().withResponseTimeout(Duration.ofSeconds(60));
        try (LocalLockManager manager = new LocalLockManager("shm", topology, options)) {
            TransactionAgent local = manager.agents().get(0);
            TransactionAgent remote = manager.agents().get(1);
            LockServer failing = manager.servers().get(0);
            failing.injectFailure(new IllegalStateException("injected"));
            while (failing.failure() == null) {
                Thread.sleep(1); // it throws at its next idle duty cycle
            }
            local.begin(1);
            assertThatThrownBy(() -> local.lock(1, LockMode.X))
                    .isInstanceOfSatisfying(
                            FaroException.class,
                            e -> assertThat(e.category()).isEqualTo(FaroException.Category.NETWORK))
                    .hasMessageContaining("lock server 0 (node 0) failed");
            remote.begin(2);
            assertThatThrownBy(() -> remote.lock(2, LockMode.S))
                    .as("an agent of another node is told too")
                    .isInstanceOf(FaroException.class)
                    .hasMessageContaining("lock server 0 (node 0) failed");
            assertThat(failing.failure()).hasMessage("injected");
            assertThatThrownBy(() -> manager.nodes().get(0).throwIfServerFailed())
                    .hasMessage("lock server 0 (node 0) failed: java.lang.IllegalStateException: injected");
        }
    }

    private static void assertNoLeaks(LocalLockManager manager) {
        manager.stopServers();
        List<LockServer> servers = manager.servers();
        for (LockServer server : servers) {
            assertThat(server.table().isIdle())
                    .as("server %d has locks left", server.index())
                    .isTrue();
            assertThat(server.table().implicitReleases()).isZero();
            assertThat(server.failure()).isNull();
        }
    }
}
