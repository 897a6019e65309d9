package dev.faro.txn.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.txn.lock.DeadlockPolicy;
import dev.faro.txn.workload.BankTransfers;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The serializability check of ETH19 §10.3 (digest): concurrent transfers between accounts spread over three nodes,
 * each under X locks taken in random order (so deadlocks happen and are broken by the timeout), with one-sided reads
 * and writes of the balances; the total must be conserved, every transaction must end, and no lock may be left.
 */
class BankTransferTest {

    private static final int ACCOUNTS_PER_SERVER = 16;
    private static final long INITIAL_BALANCE = 1_000;
    private static final int TRANSFERS_PER_AGENT = 300;

    @ParameterizedTest(name = "{0}, {1}, vote-no {2}, delay {3} µs")
    @CsvSource({
        "shm, TIMEOUT, 0, 0",
        "net, TIMEOUT, 0, 0",
        "shm, WAIT_DIE, 0, 0",
        "shm, NO_WAIT, 0, 0",
        "shm, TIMEOUT, 0.05, 50",
    })
    void totalIsConservedAcrossThreeNodes(String provider, DeadlockPolicy policy, double voteNo, long delayMicros)
            throws Exception {
        runTransfers(provider, policy, voteNo, delayMicros);
    }

    /** Runs the transfers and checks the invariant, every transaction's end and that nothing leaked. */
    static void runTransfers(String provider, DeadlockPolicy policy, double voteNo, long delayMicros) throws Exception {
        Topology topology = new Topology(3, 1, 2, ACCOUNTS_PER_SERVER);
        LockManagerOptions options = LockManagerOptions.defaults()
                .withPolicy(policy)
                .withLockTimeout(Duration.ofMillis(20))
                .withFaults(voteNo, Duration.ofNanos(delayMicros * 1_000), 7);
        BankTransfers bank = new BankTransfers(topology, INITIAL_BALANCE);
        try (LocalLockManager manager = new LocalLockManager(provider, topology, options)) {
            manager.servers().forEach(bank::open);
            AtomicLong committed = new AtomicLong();
            AtomicLong aborted = new AtomicLong();
            AgentThreads.runAll(manager.agents(), agent -> {
                SplittableRandom random = new SplittableRandom(agent.index() * 1_000_003L + 11);
                for (int transfer = 0; transfer < TRANSFERS_PER_AGENT; transfer++) {
                    aborted.addAndGet(bank.transfer(agent, random));
                    committed.incrementAndGet();
                }
            });
            manager.stopServers();
            long total = BankTransfers.total(manager.servers());
            for (LockServer server : manager.servers()) {
                assertThat(server.table().isIdle())
                        .as("server %d leaked locks", server.index())
                        .isTrue();
                assertThat(server.table().implicitReleases()).isZero();
                assertThat(server.failure()).isNull();
            }
            assertThat(total).isEqualTo(bank.expectedTotal());
            assertThat(committed.get()).isEqualTo((long) TRANSFERS_PER_AGENT * topology.agents());
            AgentStatistics all = new AgentStatistics();
            manager.agents().forEach(agent -> all.add(agent.statistics()));
            assertThat(all.committed).isEqualTo(committed.get());
            assertThat(all.aborted).isEqualTo(aborted.get());
            assertThat(all.votes).as("remote X locks make votes").isPositive();
            if (voteNo > 0) {
                assertThat(all.abortedByVote).isPositive();
            }
            System.out.printf(
                    "[bank] %s %s vote-no %.2f: %d committed, %d aborted (%d by vote), %d votes; total %d%n",
                    provider, policy, voteNo, all.committed, all.aborted, all.abortedByVote, all.votes, total);
        }
    }
}
