package dev.faro.cluster;

import dev.faro.fabric.FaroException;

/**
 * A task round failed on the cluster. The message is one line naming the node, its pid and what happened, e.g.
 * {@code node 1 (pid 1234) died with exit code 137 while running task 'query'}. The {@link Kind} says what happened;
 * the {@link Category} says what a caller can do: {@code NETWORK} (a worker died or went silent: run it again),
 * {@code TIMEOUT}, or for a task that threw, the category of the worker's {@link FaroException} ({@code
 * INVALID_ARGUMENT} when it threw anything else: a handler bug, retrying will not help).
 *
 * <p>The cluster has already started to recover when this is thrown: the next round waits for replacement workers
 * (with the setup tasks replayed) and works again.
 */
public final class ClusterException extends FaroException {

    /** What went wrong. */
    public enum Kind {
        /** A worker process exited, or its connection dropped. */
        WORKER_DIED,
        /** A worker stopped answering heartbeats. */
        WORKER_UNRESPONSIVE,
        /** A task threw on a node. */
        TASK_FAILED,
        /** The round did not end within its timeout. */
        TIMEOUT,
        /** The cluster has no healthy worker for some node (it could not be started, replaced or did not join). */
        NODE_UNAVAILABLE,
        /** The cluster was closed. */
        CLOSED
    }

    private final Kind kind;
    private final int node;

    /**
     * @param node the node that failed first, or -1 when the failure is not one node's
     */
    public ClusterException(Kind kind, Category category, int node, String message) {
        super(category, message);
        this.kind = kind;
        this.node = node;
    }

    public Kind kind() {
        return kind;
    }

    /** The node that failed first, or -1. */
    public int node() {
        return node;
    }
}
