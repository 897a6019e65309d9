package dev.faro.txn.workload;

import dev.faro.txn.lock.LockMode;
import dev.faro.txn.node.LockServer;
import dev.faro.txn.node.Topology;
import dev.faro.txn.node.TransactionAgent;
import java.lang.foreign.ValueLayout;
import java.util.Collection;
import java.util.SplittableRandom;

/**
 * The serializability check of the digest's §10.3: every lock id is an account whose balance is the lock's data word on
 * its server; a transfer X-locks two random accounts in random order (so opposite-order deadlocks happen and the
 * timeout breaks them), reads both balances one-sidedly, and writes them back moved by a random amount when it
 * commits. Under strict 2PL the sum of all balances never changes, however the transfers interleave or abort.
 *
 * <p>Data path: {@link #transfer} allocates nothing.
 */
public final class BankTransfers {

    private final Topology topology;
    private final long initialBalance;

    public BankTransfers(Topology topology, long initialBalance) {
        this.topology = java.util.Objects.requireNonNull(topology, "topology is null");
        this.initialBalance = initialBalance;
    }

    /** Sets every account of {@code server} to the initial balance (before the servers start serving). */
    public void open(LockServer server) {
        for (int i = 0; i < topology.locksPerServer(); i++) {
            server.data().setAtIndex(ValueLayout.JAVA_LONG, i, initialBalance);
        }
    }

    /** The total every server's accounts must add up to. */
    public long expectedTotal() {
        return topology.locks() * initialBalance;
    }

    /** The sum of the accounts of {@code servers} (read it once the agents stopped). */
    public static long total(Collection<LockServer> servers) {
        long total = 0;
        for (LockServer server : servers) {
            long accounts = server.data().byteSize() / 8;
            for (long i = 0; i < accounts; i++) {
                total += server.data().getAtIndex(ValueLayout.JAVA_LONG, i);
            }
        }
        return total;
    }

    /**
     * Runs one transfer on {@code agent} until it commits, restarting it (with its first priority, for WAIT_DIE) after
     * a refused lock or a no vote.
     *
     * @return how many attempts aborted before the commit
     */
    public int transfer(TransactionAgent agent, SplittableRandom random) {
        long accounts = topology.locks();
        long from = random.nextLong(accounts);
        long to = (from + 1 + random.nextLong(accounts - 1)) % accounts;
        long amount = 1 + random.nextLong(50);
        long priority = System.nanoTime();
        int aborted = 0;
        while (true) {
            agent.begin(priority);
            if (agent.lock(from, LockMode.X) && agent.lock(to, LockMode.X)) {
                agent.write(from, agent.read(from) - amount);
                agent.write(to, agent.read(to) + amount);
                if (agent.commit()) {
                    return aborted;
                }
            } else {
                agent.abort();
            }
            aborted++;
        }
    }
}
