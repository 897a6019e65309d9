package dev.faro.cluster.coordinator;

import dev.faro.cluster.ClusterException;
import dev.faro.fabric.FaroException;

/**
 * How one node's task ended badly, as the coordinator saw it; {@link #toClusterException()} turns it into what the
 * caller gets. Completes a task's future exceptionally (no stack trace: the message says it all).
 */
final class NodeFailure extends RuntimeException {

    private final ClusterException.Kind kind;
    private final FaroException.Category category;
    private final int node;

    NodeFailure(ClusterException.Kind kind, FaroException.Category category, int node, String message) {
        super(message, null, false, false);
        this.kind = kind;
        this.category = category;
        this.node = node;
    }

    ClusterException.Kind kind() {
        return kind;
    }

    FaroException.Category category() {
        return category;
    }

    /** Whether the worker itself is gone (died or silent), as opposed to a task that failed on a live worker. */
    boolean workerLost() {
        return kind == ClusterException.Kind.WORKER_DIED || kind == ClusterException.Kind.WORKER_UNRESPONSIVE;
    }

    ClusterException toClusterException() {
        return new ClusterException(kind, category, node, getMessage());
    }
}
