package dev.faro.cluster.protocol;

/**
 * The messages of the cluster protocol, in the order a session uses them (see the package documentation for the
 * fields each carries and the sequence diagram).
 */
public enum MessageType {
    /** Coordinator → worker, first frame: protocol version and the coordinator's nonce. */
    HELLO,
    /** Worker → coordinator: the worker's nonce and its proof of the secret, pid, host, the node it asks for. */
    AUTH,
    /** Coordinator → worker: refused (wrong secret, cluster full); the connection closes after it. */
    REFUSED,
    /** Coordinator → worker: accepted; the coordinator's proof, node index and count, fabric configuration. */
    WELCOME,
    /** Worker → coordinator: the fabric is open, tasks may come. */
    READY,
    /** Worker → coordinator: the worker could not get ready (the fabric did not open); it exits. */
    JOIN_FAILED,
    /** Coordinator → worker: run a task ({@code taskId}, {@code taskType}, {@code payload}). */
    TASK,
    /** Worker → coordinator: a task ended well ({@code taskId}, {@code result}, binary payload). */
    REPLY,
    /** Worker → coordinator: a task failed ({@code taskId}, {@code category}, {@code message}). */
    FAILED,
    /** Coordinator → worker: stop a task ({@code taskId}, {@code reason}); the worker still answers it. */
    CANCEL,
    /** Worker → coordinator: a contribution to an all-gather ({@code taskId}, {@code key}, {@code value}). */
    GATHER,
    /** Coordinator → worker: every node's contribution ({@code taskId}, {@code key}, {@code values}). */
    GATHERED,
    /**
     * Coordinator → worker: liveness probe ({@code clusterProgress}: the cluster's progress epoch); the worker
     * answers at once from its reader thread.
     */
    PING,
    /** Worker → coordinator: the answer to {@link #PING} ({@code progress}: the worker's batch count). */
    PONG,
    /** Coordinator → worker: exit now. */
    SHUTDOWN
}
