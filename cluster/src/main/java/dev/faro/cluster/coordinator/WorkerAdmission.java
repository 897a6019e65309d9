package dev.faro.cluster.coordinator;

import dev.faro.cluster.TaskReply;
import dev.faro.cluster.launch.LaunchedWorker;
import dev.faro.cluster.protocol.AuthenticationException;
import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.protocol.FrameChannel;
import dev.faro.cluster.protocol.Handshake;
import dev.faro.cluster.protocol.Json;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Admits one connecting worker: the handshake (a wrong secret is refused with a log line and changes nothing), a
 * node for it, WELCOME with the session settings, READY, then the setup tasks replayed in order; only then does the
 * worker take part in rounds. Coordination code; one virtual thread per connection.
 */
final class WorkerAdmission {

    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    private final Coordinator coordinator;
    private final ClusterConfig config;
    private final ClusterSecret secret;
    private final java.io.PrintStream log;

    WorkerAdmission(Coordinator coordinator, ClusterConfig config, ClusterSecret secret, java.io.PrintStream log) {
        this.coordinator = coordinator;
        this.config = config;
        this.secret = secret;
        this.log = log;
    }

    void admit(Socket socket) {
        FrameChannel channel;
        try {
            channel = new FrameChannel(socket);
        } catch (IOException e) {
            close(socket);
            return;
        }
        Handshake.JoiningWorker joining;
        WorkerConnection connection;
        try {
            channel.receiveTimeout(HANDSHAKE_TIMEOUT);
            joining = Handshake.authenticateWorker(channel, secret);
            connection = admit(joining, channel);
            if (connection == null) {
                Handshake.refuse(channel, "the cluster has no free node for this worker (nodes="
                        + coordinator.nodes() + ", requested node " + joining.requestedNode() + ")");
            }
        } catch (AuthenticationException e) {
            log.println("faro coordinator: refused a worker from " + channel.peer() + ": " + e.getMessage());
            channel.close();
            return;
        } catch (IOException | RuntimeException e) {
            log.println("faro coordinator: a connection from " + channel.peer() + " failed before joining: " + e);
            channel.close();
            return;
        }
        int node = connection.node();
        try {
            channel.send(Handshake.welcome(secret, joining)
                    .put("node", node)
                    .put("nodes", coordinator.nodes())
                    .put("fabric", fabric(node))
                    .put("exchangeTimeoutMs", config.exchangeTimeout().toMillis())
                    .put("silenceTimeoutMs", config.workerSilenceTimeout().toMillis()));
            channel.authenticated();
            channel.receiveTimeout(Duration.ZERO);
        } catch (IOException e) {
            connection.lose(dev.faro.cluster.ClusterException.Kind.WORKER_DIED, "lost its connection while joining");
            coordinator.onLost(connection);
            return;
        }
        connection.start(coordinator.gathers()::onGather, coordinator::onLost);
        try {
            connection.ready().get(config.joinTimeout().toNanos(), TimeUnit.NANOSECONDS);
            List<SetupTask> setup = coordinator.setupTasks();
            for (SetupTask task : setup) {
                TaskReply ignored = connection.submit(coordinator.nextTaskId(), task.type(), task.payloads().get(node))
                        .get(task.timeout().toNanos(), TimeUnit.NANOSECONDS);
            }
            if (coordinator.onReady(connection) && !setup.isEmpty()) {
                log.println("faro coordinator: " + connection.describe() + " joined; replayed " + setup.size()
                        + " setup task(s)");
            }
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            String reason = connection.describe() + " could not get ready: " + (e instanceof ExecutionException
                    ? e.getCause().getMessage() : e instanceof TimeoutException
                    ? "no answer within " + config.joinTimeout().toMillis() + " ms" : "interrupted");
            coordinator.onJoinFailed(connection, reason);
            connection.lose(dev.faro.cluster.ClusterException.Kind.NODE_UNAVAILABLE, "could not get ready");
        }
    }

    /**
     * Admits an authenticated worker to a node: the one it asks for (a launcher's choice) when that is free and, if a
     * process was launched for it, has the worker's pid; else the lowest free node nobody was launched for. Installs
     * and returns its connection, or returns null when there is no node for it.
     */
    private WorkerConnection admit(Handshake.JoiningWorker joining, FrameChannel channel) {
        synchronized (coordinator) {
            if (coordinator.isClosed()) {
                return null;
            }
            Coordinator.Slot[] slots = coordinator.slots();
            int node = -1;
            int requested = joining.requestedNode();
            if (requested >= 0 && requested < slots.length) {
                Coordinator.Slot slot = slots[requested];
                if (slot.connection == null && (slot.launched == null || slot.launched.pid() == joining.pid())) {
                    node = requested;
                }
            } else if (requested < 0) {
                for (int candidate = 0; candidate < slots.length && node < 0; candidate++) {
                    if (slots[candidate].connection == null && slots[candidate].launched == null) {
                        node = candidate;
                    }
                }
            }
            if (node < 0) {
                return null;
            }
            Coordinator.Slot slot = slots[node];
            LaunchedWorker process =
                    slot.launched != null && slot.launched.pid() == joining.pid() ? slot.launched : null;
            WorkerConnection connection = new WorkerConnection(node, joining.pid(), joining.host(), channel, process);
            slot.connection = connection;
            slot.ready = false;
            slot.lastPingNanos = System.nanoTime();
            return connection;
        }
    }

    private ObjectNode fabric(int node) {
        ObjectNode fabric = Json.object();
        fabric.put("provider", config.provider());
        fabric.put("peerTimeoutMs", config.workerFabricPeerTimeout().toMillis());
        ObjectNode options = fabric.putObject("options");
        config.providerOptions().forEach(options::put);
        return fabric;
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }
}
