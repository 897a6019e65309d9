package dev.faro.txn.node;

/**
 * Where the lock manager's roles sit (ETH19 Fig. 5.1): {@code nodes} machines (processes), each with
 * {@code serversPerNode} lock servers and {@code agentsPerNode} transaction agents, numbered globally node by node;
 * the lock-id space {@code [0, servers × locksPerServer)} range-partitioned in equal contiguous ranges, server s owning
 * {@code [s × locksPerServer, (s + 1) × locksPerServer)}. Every process computes the same map, so it needs no
 * broadcast beyond the configuration.
 *
 * @param nodes machines (processes)
 * @param serversPerNode lock-server agents per machine
 * @param agentsPerNode transaction agents per machine
 * @param locksPerServer locks each server owns
 */
public record Topology(int nodes, int serversPerNode, int agentsPerNode, int locksPerServer) {

    public Topology {
        if (nodes <= 0 || serversPerNode <= 0 || agentsPerNode <= 0 || locksPerServer <= 0) {
            throw new IllegalArgumentException("nodes=" + nodes + ", serversPerNode=" + serversPerNode
                    + ", agentsPerNode=" + agentsPerNode + ", locksPerServer=" + locksPerServer
                    + ": all must be positive");
        }
        if ((long) nodes * serversPerNode * locksPerServer > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("too many locks: " + (long) nodes * serversPerNode * locksPerServer);
        }
    }

    public int servers() {
        return nodes * serversPerNode;
    }

    public int agents() {
        return nodes * agentsPerNode;
    }

    /** Every lock id is in [0, locks()). */
    public long locks() {
        return (long) servers() * locksPerServer;
    }

    /** The global index of the server owning {@code lockId}. */
    public int serverOf(long lockId) {
        if (lockId < 0 || lockId >= locks()) {
            throw new IllegalArgumentException("lock " + lockId + " outside [0, " + locks() + ")");
        }
        return (int) (lockId / locksPerServer);
    }

    public long firstLock(int server) {
        return (long) server * locksPerServer;
    }

    public int nodeOfServer(int server) {
        return server / serversPerNode;
    }

    public int nodeOfAgent(int agent) {
        return agent / agentsPerNode;
    }

    /** The global index of local server {@code local} of {@code node}. */
    public int server(int node, int local) {
        return node * serversPerNode + local;
    }

    /** The global index of local agent {@code local} of {@code node}. */
    public int agent(int node, int local) {
        return node * agentsPerNode + local;
    }

    /** Whether {@code lockId} lives on another machine than {@code agent} (Eq. 5.1's remote case). */
    public boolean isRemote(int agent, long lockId) {
        return nodeOfServer(serverOf(lockId)) != nodeOfAgent(agent);
    }
}
