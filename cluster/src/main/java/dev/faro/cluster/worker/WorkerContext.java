package dev.faro.cluster.worker;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.ProgressSignal;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a {@link TaskHandler} gets for one task: the node's place in the cluster, the worker's one {@link Fabric}, the
 * cluster's secret (for connections between workers), a {@link PeerExchange} relayed through the coordinator and
 * scoped to this task (keys of different tasks never meet), the worker's attributes that outlive tasks (e.g. loaded
 * tables), and the task's cancellation state.
 *
 * <p>Threads: the task's thread uses it; the worker's reader thread calls {@link #cancel}. Cancellation is
 * cooperative: handlers check {@link #isCancelled()} or register {@link #onCancel} hooks; the worker also interrupts
 * the task's thread and fails its pending all-gathers. A task that does not end soon after a cancel gets its worker
 * replaced.
 */
public final class WorkerContext {

    private final long taskId;
    private final String taskType;
    private final int nodeIndex;
    private final int nodes;
    private final Fabric fabric;
    private final SharedSecret secret;
    private final RelayedPeerExchange exchange;
    private final ConcurrentMap<String, Object> attributes;
    private final ProgressSignal progress;
    private final Duration stallTimeout;
    private final List<Runnable> cancelHooks = new CopyOnWriteArrayList<>();

    /** Written once by the reader thread (first cancel wins), read by the task thread. */
    private volatile String cancelReason;

    WorkerContext(
            long taskId,
            String taskType,
            int nodeIndex,
            int nodes,
            Fabric fabric,
            SharedSecret secret,
            RelayedPeerExchange exchange,
            ConcurrentMap<String, Object> attributes,
            ProgressSignal progress,
            Duration stallTimeout) {
        this.taskId = taskId;
        this.taskType = taskType;
        this.nodeIndex = nodeIndex;
        this.nodes = nodes;
        this.fabric = fabric;
        this.secret = secret;
        this.exchange = exchange;
        this.attributes = attributes;
        this.progress = progress;
        this.stallTimeout = stallTimeout;
    }

    /** The coordinator's id of this task (unique per coordinator). */
    public long taskId() {
        return taskId;
    }

    public String taskType() {
        return taskType;
    }

    /** This node's index, in [0, {@link #nodes()}). */
    public int nodeIndex() {
        return nodeIndex;
    }

    public int nodes() {
        return nodes;
    }

    /** The worker's fabric node, open for the worker's lifetime; never close it. */
    public Fabric fabric() {
        return fabric;
    }

    /**
     * The cluster's secret, as the key of the challenge–response with which this node authenticates the connections
     * it opens to other workers (the TCP shuffle baseline's); never log it.
     */
    public SharedSecret secret() {
        return secret;
    }

    /**
     * This task's all-gather through the coordinator: every node of the round calls it with the same keys; several
     * keys may be pending at once, from several threads. Fails with {@code NETWORK} when the round is cancelled (a
     * node died) and with {@code TIMEOUT} when the other nodes do not contribute in time.
     */
    public PeerExchange exchange() {
        return exchange;
    }

    /**
     * This worker's progress signal: advance it as work moves (the query engine does, per batch); its count goes to
     * the coordinator with every heartbeat, and the cluster's progress comes back into it. Give it to shuffle
     * endpoints ({@code EndpointConfig.withProgress}) so they report a stall only when nothing moves anywhere.
     */
    public ProgressSignal progress() {
        return progress;
    }

    /** The cluster's {@code exchangeStallTimeout}: how long a shuffle may see no progress anywhere before it fails. */
    public Duration exchangeStallTimeout() {
        return stallTimeout;
    }

    /** State that survives between tasks on this worker (thread-safe); lost when the worker is replaced. */
    public ConcurrentMap<String, Object> attributes() {
        return attributes;
    }

    public boolean isCancelled() {
        return cancelReason != null;
    }

    /** Throws {@code FaroException(NETWORK)} with the coordinator's reason when the task was cancelled. */
    public void throwIfCancelled() {
        String reason = cancelReason;
        if (reason != null) {
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    "task '" + taskType + "' cancelled on node " + nodeIndex + ": " + reason);
        }
    }

    /** Runs {@code hook} on cancel (at once when already cancelled); hooks run on the worker's reader thread. */
    public void onCancel(Runnable hook) {
        Objects.requireNonNull(hook, "hook is null");
        cancelHooks.add(hook);
        if (isCancelled() && cancelHooks.remove(hook)) {
            hook.run();
        }
    }

    /** The coordinator cancelled the task; first reason wins. Called by the worker's reader thread. */
    void cancel(String reason) {
        if (cancelReason != null) {
            return;
        }
        cancelReason = reason;
        exchange.abort(reason);
        for (Runnable hook : cancelHooks) {
            if (cancelHooks.remove(hook)) {
                try {
                    hook.run();
                } catch (RuntimeException e) {
                    System.err.println("faro worker: node " + nodeIndex + ": a cancel hook of task '" + taskType
                            + "' failed: " + e);
                }
            }
        }
    }
}
