package dev.faro.txn.workload;

import dev.faro.txn.lock.LockMode;
import dev.faro.txn.node.Topology;
import dev.faro.txn.tpcc.LockIntent;
import dev.faro.txn.tpcc.LockSink;
import dev.faro.txn.tpcc.TpccIsolation;
import dev.faro.txn.tpcc.TpccLockSets;
import dev.faro.txn.tpcc.TpccTransactionType;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * TPC-C on the lock manager as ETH19 §5.4.2 deploys it: lock servers own whole warehouses (server s owns warehouses
 * {@code [s × w, (s + 1) × w)} for {@code w = locksPerServer / 2^16}), and each agent is the client of a home
 * warehouse on its own machine (agent i of a node takes the node's warehouse i, wrapping), so most requests stay local
 * and a warehouse's requests come from one source. Lock ids are the generator's resource ids.
 *
 * <p>Data path: {@link #next} allocates nothing. Not thread-safe (the generator keeps order numbers): one instance per
 * agent thread.
 */
public final class TpccWorkload implements Workload, LockSink {

    private static final LockMode[] MODES = {LockMode.IS, LockMode.IX, LockMode.S, LockMode.X};

    private final Topology topology;
    private final TpccLockSets generator;
    private final int warehousesPerServer;
    private LockList target;

    public TpccWorkload(Topology topology, TpccIsolation isolation) {
        this.topology = java.util.Objects.requireNonNull(topology, "topology is null");
        if (topology.locksPerServer() % TpccLockSets.RESOURCES_PER_WAREHOUSE != 0) {
            throw new IllegalArgumentException("TPC-C needs whole warehouses per server: locksPerServer must be a"
                    + " multiple of " + TpccLockSets.RESOURCES_PER_WAREHOUSE + ", not " + topology.locksPerServer());
        }
        this.warehousesPerServer = topology.locksPerServer() / TpccLockSets.RESOURCES_PER_WAREHOUSE;
        this.generator = new TpccLockSets(topology.servers() * warehousesPerServer, isolation);
    }

    /** The lock-manager topology for {@code warehousesPerServer} warehouses per server. */
    public static int locksPerServer(int warehousesPerServer) {
        return warehousesPerServer * TpccLockSets.RESOURCES_PER_WAREHOUSE;
    }

    @Override
    public String name() {
        return "TPC-C "
                + generator
                        .isolation()
                        .name()
                        .toLowerCase(java.util.Locale.ROOT)
                        .replace('_', ' ');
    }

    @Override
    public List<String> transactionTypes() {
        return Arrays.stream(TpccTransactionType.values())
                .map(type -> type.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'))
                .toList();
    }

    @Override
    public List<String> lockLevels() {
        return TpccLockSets.LEVELS;
    }

    @Override
    public int lockLevel(long lockId) {
        return TpccLockSets.levelOf(lockId);
    }

    /** The home warehouse of {@code agent}: one of its own node's warehouses. */
    public int homeWarehouse(int agent) {
        int perNode = topology.serversPerNode() * warehousesPerServer;
        int local = agent % topology.agentsPerNode();
        return topology.nodeOfAgent(agent) * perNode + local % perNode;
    }

    @Override
    public void next(int agent, SplittableRandom random, LockList into) {
        target = into;
        into.clear(0);
        TpccTransactionType type = generator.next(random, homeWarehouse(agent), this);
        // the type is known only after drawing: keep the locks, set it
        into.retype(type.ordinal());
        target = null;
    }

    @Override
    public void lock(long resourceId, LockIntent intent) {
        target.add(resourceId, MODES[intent.ordinal()]);
    }
}
