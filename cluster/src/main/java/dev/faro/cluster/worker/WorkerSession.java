package dev.faro.cluster.worker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.launch.ChildProcesses;
import dev.faro.cluster.protocol.Frame;
import dev.faro.cluster.protocol.FrameChannel;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.protocol.MessageType;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.shuffle.endpoint.ProgressSignal;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A joined worker's life after READY: the reader loop answers pings, starts each task on its own thread, relays
 * gathers and cancels, and ends on SHUTDOWN, on a dropped connection or when the coordinator stays silent too long.
 * Coordination code.
 *
 * <p>Threads: the thread that calls {@link #run} reads frames; each task runs on its own daemon platform thread and
 * sends its REPLY or FAILED itself (sends are serialized by the channel).
 */
final class WorkerSession {

    private final FrameChannel channel;
    private final int nodeIndex;
    private final int nodes;
    private final Fabric fabric;
    private final SharedSecret secret;
    private final Duration exchangeTimeout;
    private final Duration stallTimeout;
    private final TaskHandlers handlers;
    /** Where memory-mapped fabric files live, for the message when that file system is full. */
    private final String sharedMemoryDirectory;
    /** This node's progress, reported with every PONG; the cluster's, relayed with every PING. */
    private final ProgressSignal progress = new ProgressSignal();

    private final ConcurrentMap<String, Object> attributes = new ConcurrentHashMap<>();
    private final Map<Long, RunningTask> tasks = new ConcurrentHashMap<>();

    private record RunningTask(WorkerContext context, RelayedPeerExchange exchange, Thread thread) {}

    WorkerSession(
            FrameChannel channel,
            int nodeIndex,
            int nodes,
            Fabric fabric,
            SharedSecret secret,
            Duration exchangeTimeout,
            Duration stallTimeout,
            TaskHandlers handlers,
            String sharedMemoryDirectory) {
        this.channel = channel;
        this.nodeIndex = nodeIndex;
        this.nodes = nodes;
        this.fabric = fabric;
        this.secret = secret;
        this.exchangeTimeout = exchangeTimeout;
        this.stallTimeout = stallTimeout;
        this.handlers = handlers;
        this.sharedMemoryDirectory = sharedMemoryDirectory;
    }

    /**
     * Serves the coordinator until it says SHUTDOWN (returns true) or the connection ends (returns false, after a
     * line on standard error saying why). The channel's receive timeout bounds the coordinator's silence.
     */
    boolean run() {
        try {
            while (true) {
                Frame frame = channel.receive();
                switch (frame.type()) {
                    case PING -> onPing(frame);
                    case TASK -> onTask(frame);
                    case CANCEL -> onCancel(frame);
                    case GATHERED -> onGathered(frame);
                    case SHUTDOWN -> {
                        cancelAll("the coordinator shut the cluster down");
                        closeAttributes();
                        return true;
                    }
                    default ->
                        throw new FaroException(
                                FaroException.Category.NETWORK, "unexpected " + frame.type() + " from the coordinator");
                }
            }
        } catch (EOFException e) {
            System.err.println("faro worker: node " + nodeIndex + ": the coordinator closed the connection; exiting");
        } catch (SocketTimeoutException e) {
            System.err.println(
                    "faro worker: node " + nodeIndex + ": the coordinator has been silent too long;" + " exiting");
        } catch (IOException | RuntimeException e) {
            System.err.println("faro worker: node " + nodeIndex + ": lost the coordinator (" + e + "); exiting");
        }
        cancelAll("the coordinator connection was lost");
        closeAttributes();
        return false;
    }

    /**
     * Closes what tasks left for later tasks ({@link WorkerContext#attributes()}: e.g. the transports' node-lifetime
     * objects, a zero-sided link pool whose files live under {@code /dev/shm}), before the caller closes the fabric.
     * A failure is one line on standard error; the worker exits anyway.
     */
    private void closeAttributes() {
        for (Object value : attributes.values()) {
            if (value instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    System.err.println("faro worker: node " + nodeIndex + ": closing "
                            + value.getClass().getSimpleName() + " failed: " + e);
                }
            }
        }
        attributes.clear();
    }

    /**
     * Answers at once, from this reader thread (never behind a task), with this node's progress count; notes the
     * cluster's progress epoch the PING carries.
     */
    private void onPing(Frame frame) throws IOException {
        progress.remoteAdvanced(frame.header().path("clusterProgress").asLong(0));
        channel.send(Frame.of(MessageType.PONG).put("progress", progress.local()));
    }

    private void onTask(Frame frame) {
        long taskId = frame.number("taskId");
        String type = frame.text("taskType");
        JsonNode payload = frame.header().path("payload");
        int roundNodes = frame.header().path("nodes").asInt(nodes); // a round over the first k nodes names k
        RelayedPeerExchange exchange = new RelayedPeerExchange(
                nodeIndex,
                roundNodes,
                exchangeTimeout,
                (key, value) -> channel.send(Frame.of(MessageType.GATHER)
                        .put("taskId", taskId)
                        .put("key", key)
                        .put("value", Json.MAPPER.getNodeFactory().binaryNode(value))));
        WorkerContext context = new WorkerContext(
                taskId, type, nodeIndex, roundNodes, fabric, secret, exchange, attributes, progress, stallTimeout);
        Thread thread = Thread.ofPlatform()
                .daemon()
                .name("faro-task-" + taskId + "-" + type)
                .unstarted(() -> runTask(context, payload));
        tasks.put(taskId, new RunningTask(context, exchange, thread));
        thread.start();
    }

    /** Runs one task and answers it; an {@link Error} is reported first, then rethrown (the thread ends with it). */
    private void runTask(WorkerContext context, JsonNode payload) {
        Frame answer;
        Error error = null;
        try {
            TaskHandler handler = handlers.find(context.taskType());
            if (handler == null) {
                throw new FaroException(
                        FaroException.Category.NOT_SUPPORTED,
                        "no handler for task type '" + context.taskType() + "' on node " + nodeIndex + "; known: "
                                + handlers.types());
            }
            TaskReply reply = handler.handle(context, payload);
            if (reply == null) {
                reply = TaskReply.empty();
            }
            answer = Frame.of(MessageType.REPLY)
                    .put("taskId", context.taskId())
                    .put("result", reply.result())
                    .withPayload(reply.payload());
        } catch (Throwable e) {
            Throwable failure = isMappedFileFault(e) ? sharedMemoryFull(e) : e;
            answer = failure(context, failure);
            error = failure instanceof Error fatal ? fatal : null;
        }
        tasks.remove(context.taskId());
        send(answer, context);
        if (error != null) {
            throw error;
        }
    }

    /**
     * Whether {@code e} is the JVM's report of a fault (SIGBUS) while accessing a memory-mapped file: on a tmpfs such
     * as {@code /dev/shm}, a write to a page of a sparse file that the full file system cannot back. The JVM stays
     * sound; only this access failed.
     */
    static boolean isMappedFileFault(Throwable e) {
        return e instanceof InternalError
                && e.getMessage() != null
                && e.getMessage().contains("fault occurred in")
                && e.getMessage().contains("unsafe memory access");
    }

    private FaroException sharedMemoryFull(Throwable fault) {
        return new FaroException(
                FaroException.Category.IO,
                "node " + nodeIndex + " ran out of shared memory: the"
                        + " file system of " + sharedMemoryDirectory + " is full (see df " + sharedMemoryDirectory
                        + "; free"
                        + " space there or give a larger tmpfs with --shm-directory)",
                fault);
    }

    private Frame failure(WorkerContext context, Throwable e) {
        boolean faro = e instanceof FaroException;
        if (!faro && !context.isCancelled() && !ChildProcesses.shuttingDown()) { // not what a stop breaks
            System.err.println("faro worker: node " + nodeIndex + ": task '" + context.taskType() + "' failed:");
            e.printStackTrace(System.err);
        }
        String message = faro ? String.valueOf(e.getMessage()) : e.getClass().getName() + ": " + e.getMessage();
        return Frame.of(MessageType.FAILED)
                .put("taskId", context.taskId())
                .put("category", faro ? ((FaroException) e).category().name() : "INTERNAL")
                .put("cancelled", context.isCancelled())
                .put("message", message.replaceAll("\\s+", " ").strip());
    }

    private void send(Frame frame, WorkerContext context) {
        try {
            channel.send(frame);
        } catch (IOException e) {
            System.err.println("faro worker: node " + nodeIndex + ": cannot answer task '" + context.taskType() + "': "
                    + e.getMessage());
        }
    }

    private void onCancel(Frame frame) {
        RunningTask task = tasks.get(frame.number("taskId"));
        if (task != null) {
            task.context().cancel(frame.header().path("reason").asText("cancelled by the coordinator"));
            task.thread().interrupt();
        }
    }

    private void onGathered(Frame frame) throws IOException {
        RunningTask task = tasks.get(frame.number("taskId"));
        if (task == null) {
            return; // the task ended (failed) while others were still contributing
        }
        JsonNode values = frame.required("values");
        byte[][] all = new byte[values.size()][];
        for (int node = 0; node < all.length; node++) {
            JsonNode value = values.get(node);
            all[node] =
                    value.isBinary() ? value.binaryValue() : Base64.getDecoder().decode(value.asText());
        }
        task.exchange().deliver(frame.text("key"), all);
    }

    private void cancelAll(String reason) {
        for (RunningTask task : tasks.values()) {
            task.context().cancel(reason);
            task.thread().interrupt();
        }
    }
}
