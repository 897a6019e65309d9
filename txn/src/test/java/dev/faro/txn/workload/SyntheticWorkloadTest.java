package dev.faro.txn.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.txn.node.Topology;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The synthetic workload's draws: distinct locks, the remote share, and the hot locks (first, ascending, shared). */
class SyntheticWorkloadTest {

    private final Topology topology = new Topology(2, 2, 1, 1 << 16);

    @Test
    void withoutHotLocksEveryLockIsDistinctAndLocalAtZeroRemote() {
        SyntheticWorkload workload = new SyntheticWorkload(topology, 10, 0);
        LockList locks = new LockList();
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 1_000; i++) {
            workload.next(0, random, locks);
            Set<Long> ids = new HashSet<>();
            for (int j = 0; j < locks.size(); j++) {
                ids.add(locks.lockId(j));
                assertThat(topology.isRemote(0, locks.lockId(j))).isFalse();
            }
            assertThat(ids).hasSize(10);
        }
    }

    @Test
    void hotLocksComeFirstAscendingAndAreSharedByEveryNode() {
        SyntheticWorkload workload = new SyntheticWorkload(topology, 10, 0, 0.3);
        LockList locks = new LockList();
        SplittableRandom random = new SplittableRandom(2);
        long hotLocks = 0;
        Set<Integer> hotServers = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            workload.next(i % 2, random, locks);
            assertThat(locks.size()).isEqualTo(10);
            long previous = -1;
            boolean inHotPrefix = true;
            for (int j = 0; j < locks.size(); j++) {
                long id = locks.lockId(j);
                int server = topology.serverOf(id);
                boolean hot = id - topology.firstLock(server) < SyntheticWorkload.HOT_LOCKS_PER_SERVER;
                if (hot && inHotPrefix) {
                    assertThat(id).as("hot locks ascending").isGreaterThan(previous);
                    previous = id;
                    hotLocks++;
                    hotServers.add(server);
                } else {
                    inHotPrefix = false;
                }
            }
        }
        assertThat(hotLocks / 10_000.0).isBetween(0.25, 0.35);
        assertThat(hotServers).as("hot locks on every server").hasSize(topology.servers());
    }

    @Test
    void aTransactionNeverHoldsMoreHotLocksThanThereAre() {
        Topology single = new Topology(1, 1, 1, 1 << 16); // 4 hot locks
        SyntheticWorkload workload = new SyntheticWorkload(single, 10, 0, 1.0);
        LockList locks = new LockList();
        workload.next(0, new SplittableRandom(3), locks);
        assertThat(locks.size()).isEqualTo(10);
        for (int j = 0; j < SyntheticWorkload.HOT_LOCKS_PER_SERVER; j++) {
            assertThat(locks.lockId(j)).isEqualTo(j);
        }
        assertThatThrownBy(() -> new SyntheticWorkload(new Topology(1, 1, 1, 4), 2, 0, 0.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hot locks");
    }
}
