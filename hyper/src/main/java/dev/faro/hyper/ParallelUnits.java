package dev.faro.hyper;

/**
 * VLDB16 §3.1's arithmetic of classic against hybrid parallelism for {@code nodes} servers with
 * {@code threadsPerNode} workers each: what a classic (Volcano) exchange, whose parallel units are the n·t threads,
 * needs in connections and buffers and the size ratio from which its broadcast pays, against the decoupled exchange over one
 * multiplexer per server, whose units are the n servers. The paper's example is n = 6, t = 40: 57,560 against 30
 * connections, 239 against 5 buffers per exchange operator, broadcast above a size ratio of 239 against 5 (the
 * engine's rule: {@code dev.faro.engine.plan.BroadcastRule}).
 * Immutable value; coordination code.
 *
 * @param nodes servers, n ≥ 1
 * @param threadsPerNode worker threads per server, t ≥ 1
 */
public record ParallelUnits(int nodes, int threadsPerNode) {

    public ParallelUnits {
        if (nodes < 1 || threadsPerNode < 1) {
            throw new IllegalArgumentException(
                    "nodes and threads must be positive: nodes=" + nodes + " threadsPerNode=" + threadsPerNode);
        }
    }

    /** Classic: parallel units, n·t. */
    public long classicUnits() {
        return (long) nodes * threadsPerNode;
    }

    /** Classic: connections in the cluster, as the paper counts them: n²·t² − t (every unit to every unit). */
    public long classicConnections() {
        long units = classicUnits();
        return units * units - threadsPerNode;
    }

    /** Classic: buffers per exchange operator (one per other unit), n·t − 1. */
    public long classicBuffersPerOperator() {
        return classicUnits() - 1;
    }

    /** Classic: broadcasting the smaller input beats repartitioning both once the size ratio exceeds n·t − 1. */
    public long classicBroadcastRatio() {
        return classicUnits() - 1;
    }

    /** Hybrid: connections in the cluster, only between multiplexers: n·(n − 1). */
    public long hybridConnections() {
        return (long) nodes * (nodes - 1);
    }

    /** Hybrid: buffers per exchange operator, one per remote server (the own share bypasses the network): n − 1. */
    public long hybridBuffersPerOperator() {
        return nodes - 1;
    }

    /** Hybrid: broadcast pays once the size ratio exceeds n − 1 (each tuple goes once to each remote server). */
    public long hybridBroadcastRatio() {
        return nodes - 1;
    }
}
