package dev.faro.cluster.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.ClusterException;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.launch.LaunchedWorker;
import dev.faro.cluster.protocol.Frame;
import dev.faro.cluster.protocol.FrameChannel;
import dev.faro.cluster.protocol.MessageType;
import dev.faro.fabric.FaroException;
import java.io.EOFException;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The coordinator's side of one joined worker: its connection, its reader thread, the futures of the tasks it runs,
 * and how it was lost. Coordination code.
 *
 * <p>Threads: a virtual reader thread completes task futures and passes GATHERs on; any thread may {@link #submit},
 * {@link #cancel}, {@link #ping} or {@link #lose} (the first loss wins and fails every pending future).
 */
final class WorkerConnection {

    /** How long the reader waits, after the connection ended, for a local process's exit code. */
    private static final Duration EXIT_STATUS_WAIT = Duration.ofSeconds(2);

    private record PendingTask(String type, CompletableFuture<TaskReply> future, long[] cancelDeadlineNs) {}

    private final int node;
    private final long pid;
    private final String host;
    private final FrameChannel channel;
    private final LaunchedWorker process;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final Map<Long, PendingTask> tasks = new ConcurrentHashMap<>();
    private final AtomicBoolean pingInFlight = new AtomicBoolean();

    /**
     * Whether {@link #start} ran: the worker has its WELCOME. Until then the supervisor neither pings it (a PING before
     * the WELCOME would fail the worker's handshake) nor counts its silence. Written by the admitting thread.
     */
    private volatile boolean started;
    /** Written by the reader (any frame) and by {@link #start}, read by the supervisor. */
    private volatile long lastHeardNanos = System.nanoTime();
    /** The worker's progress count from its last PONG; written by the reader, read by the supervisor. */
    private volatile long reportedProgress;
    /** The reported progress the supervisor last relayed; supervisor thread only. */
    private long relayedProgress;

    // Guarded by this: the first loss wins.
    private ClusterException.Kind lostKind;
    private String lostWhat;

    /**
     * @param process the local process when this coordinator launched it, or null
     */
    WorkerConnection(int node, long pid, String host, FrameChannel channel, LaunchedWorker process) {
        this.node = node;
        this.pid = pid;
        this.host = host;
        this.channel = channel;
        this.process = process;
    }

    int node() {
        return node;
    }

    /** The host name the worker gave when it joined (sanitised). */
    String host() {
        return host;
    }

    long pid() {
        return pid;
    }

    LaunchedWorker process() {
        return process;
    }

    /** "node 1 (pid 1234)", with the host for a worker this coordinator did not launch. */
    String describe() {
        return "node " + node + " (pid " + pid + (process == null ? " on " + host : "") + ")";
    }

    /** Completes when the worker said READY; fails when it could not get ready or was lost. */
    CompletableFuture<Void> ready() {
        return ready;
    }

    /** When the worker was last heard from: its last frame, or progress inside a large one. */
    long lastHeardNanos() {
        long progress = channel.lastReceiveProgressNanos();
        return progress - lastHeardNanos > 0 ? progress : lastHeardNanos;
    }

    /** Whether a task is still running there (including cancelled ones that have not answered yet). */
    boolean busy() {
        return !tasks.isEmpty();
    }

    synchronized boolean isLost() {
        return lostKind != null;
    }

    /**
     * Starts the reader thread.
     *
     * @param onGather called with (this, GATHER frame) on the reader thread
     * @param onLost called once, on the reader thread or the losing thread, after the loss was recorded
     */
    void start(BiConsumer<WorkerConnection, Frame> onGather, Consumer<WorkerConnection> onLost) {
        lastHeardNanos = System.nanoTime();
        started = true;
        Thread.ofVirtual().name("faro-coordinator-reader-" + node).start(() -> {
            try {
                while (true) {
                    Frame frame = channel.receive();
                    lastHeardNanos = System.nanoTime();
                    switch (frame.type()) {
                        case PONG ->
                            reportedProgress = frame.header().path("progress").asLong(0);
                        case READY -> ready.complete(null);
                        case JOIN_FAILED ->
                            lose(
                                    ClusterException.Kind.NODE_UNAVAILABLE,
                                    "could not get ready: "
                                            + frame.header().path("message").asText());
                        case REPLY -> onReply(frame);
                        case FAILED -> onFailed(frame);
                        case GATHER -> onGather.accept(this, frame);
                        default ->
                            throw new FaroException(
                                    FaroException.Category.NETWORK,
                                    "unexpected " + frame.type() + " from " + describe());
                    }
                }
            } catch (EOFException e) {
                loseAfterEnd("closed its connection");
            } catch (IOException | RuntimeException e) {
                if (!isLost()) {
                    loseAfterEnd("lost its connection (" + e.getMessage() + ")");
                }
            }
            onLost.accept(this);
        });
    }

    private void loseAfterEnd(String what) {
        if (process != null && process.awaitExit(EXIT_STATUS_WAIT)) {
            int code = process.exitCode();
            java.util.List<String> tail = process.stderrTail();
            boolean signal = code > 128 && code < 160;
            lose(
                    ClusterException.Kind.WORKER_DIED,
                    process.describeExit()
                            + (signal || tail.isEmpty() ? "" : " (its last error line: " + tail.getLast() + ")"));
        } else {
            lose(ClusterException.Kind.WORKER_DIED, what);
        }
    }

    /** Sends a task; the future completes with the reply or fails with a {@link NodeFailure}. */
    CompletableFuture<TaskReply> submit(long taskId, String type, JsonNode payload) {
        return submit(taskId, type, payload, 0);
    }

    /**
     * Sends a task of a round over the first {@code roundNodes} nodes (0: every node of the cluster); the worker's
     * context and all-gathers then count that many nodes.
     */
    CompletableFuture<TaskReply> submit(long taskId, String type, JsonNode payload, int roundNodes) {
        CompletableFuture<TaskReply> future = new CompletableFuture<>();
        tasks.put(taskId, new PendingTask(type, future, new long[1]));
        synchronized (this) {
            if (lostKind != null) {
                failAll();
                return future;
            }
        }
        try {
            Frame task = Frame.of(MessageType.TASK)
                    .put("taskId", taskId)
                    .put("taskType", type)
                    .put("payload", payload);
            channel.send(roundNodes > 0 ? task.put("nodes", roundNodes) : task);
        } catch (IOException e) {
            lose(ClusterException.Kind.WORKER_DIED, "could not be sent task '" + type + "' (" + e.getMessage() + ")");
        }
        return future;
    }

    /** Asks the worker to stop {@code taskId}; after {@code grace} the supervisor replaces the worker. */
    void cancel(long taskId, String reason, Duration grace) {
        PendingTask task = tasks.get(taskId);
        if (task == null) {
            return;
        }
        task.cancelDeadlineNs()[0] = System.nanoTime() + grace.toNanos();
        send(Frame.of(MessageType.CANCEL).put("taskId", taskId).put("reason", reason));
    }

    /** Moves every pending cancel deadline {@code nanos} later (this process was paused that long). Supervisor. */
    void postponeCancelDeadlines(long nanos) {
        for (PendingTask task : tasks.values()) {
            long deadline = task.cancelDeadlineNs()[0];
            if (deadline != 0) {
                task.cancelDeadlineNs()[0] = deadline + nanos;
            }
        }
    }

    /** The type of a cancelled task that overran its grace, or null. Supervisor thread. */
    String overdueCancelledTask(long nowNanos) {
        for (PendingTask task : tasks.values()) {
            long deadline = task.cancelDeadlineNs()[0];
            if (deadline != 0 && nowNanos - deadline > 0) {
                return task.type();
            }
        }
        return null;
    }

    /**
     * Whether the worker reported progress since the last call: its PONGs carry a count of the batches it moved.
     * Supervisor thread only.
     */
    boolean progressedSinceLastLook() {
        long reported = reportedProgress;
        if (reported == relayedProgress) {
            return false;
        }
        relayedProgress = reported;
        return true;
    }

    /** Whether the worker has its WELCOME and the reader runs (see {@link #start}). */
    boolean isStarted() {
        return started;
    }

    /**
     * Sends a PING carrying the cluster's progress epoch from a virtual thread, at most one in flight: the supervisor
     * never blocks on a worker whose socket is full (a stopped process), and its silence check goes on.
     */
    void ping(long clusterProgress) {
        if (pingInFlight.compareAndSet(false, true)) {
            Thread.ofVirtual().name("faro-coordinator-ping-" + node).start(() -> {
                try {
                    send(Frame.of(MessageType.PING).put("clusterProgress", clusterProgress));
                } finally {
                    pingInFlight.set(false);
                }
            });
        }
    }

    /** Sends a frame; a failure to send loses the worker. */
    void send(Frame frame) {
        try {
            channel.send(frame);
        } catch (IOException e) {
            lose(ClusterException.Kind.WORKER_DIED, "lost its connection (" + e.getMessage() + ")");
        }
    }

    /** Asks the worker to exit; best effort. */
    void shutdown() {
        try {
            channel.send(Frame.of(MessageType.SHUTDOWN));
        } catch (IOException ignored) {
            // already gone
        }
        channel.close();
    }

    /**
     * Records how the worker was lost (first call wins), closes the connection and fails the pending tasks with
     * "node 1 (pid 1234) died with exit code 137 while running task 'query'".
     *
     * @param what what happened, as a verb phrase ("died with exit code 137", "stopped answering heartbeats")
     */
    void lose(ClusterException.Kind kind, String what) {
        synchronized (this) {
            if (lostKind == null) {
                lostKind = kind;
                lostWhat = what;
            }
        }
        channel.close();
        ready.completeExceptionally(new NodeFailure(
                lostKind(), FaroException.Category.NETWORK, node, describe() + " " + lostWhat() + " while joining"));
        failAll();
    }

    private synchronized ClusterException.Kind lostKind() {
        return lostKind;
    }

    /** How the worker was lost, or null. */
    synchronized String lostWhat() {
        return lostWhat;
    }

    private void failAll() {
        for (Long taskId : tasks.keySet()) {
            PendingTask task = tasks.remove(taskId);
            if (task != null) {
                task.future()
                        .completeExceptionally(new NodeFailure(
                                lostKind(),
                                FaroException.Category.NETWORK,
                                node,
                                describe() + " " + lostWhat() + " while running task '" + task.type() + "'"));
            }
        }
    }

    private void onReply(Frame frame) {
        PendingTask task = tasks.remove(frame.number("taskId"));
        if (task != null) {
            task.future().complete(new TaskReply(frame.header().get("result"), frame.payload()));
        }
    }

    private void onFailed(Frame frame) {
        PendingTask task = tasks.remove(frame.number("taskId"));
        if (task == null) {
            return;
        }
        String remote = frame.header().path("category").asText("INTERNAL");
        FaroException.Category category;
        try {
            category = FaroException.Category.valueOf(remote);
        } catch (IllegalArgumentException e) {
            category = FaroException.Category.INVALID_ARGUMENT;
        }
        String message = describe() + " failed task '" + task.type() + "'"
                + (frame.header().path("cancelled").asBoolean() ? " after its cancel" : "") + ": "
                + (remote.equals("INTERNAL") ? "" : remote + " ")
                + frame.header().path("message").asText();
        task.future()
                .completeExceptionally(new NodeFailure(ClusterException.Kind.TASK_FAILED, category, node, message));
    }
}
