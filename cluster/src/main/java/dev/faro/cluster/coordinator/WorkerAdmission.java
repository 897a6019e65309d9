package dev.faro.cluster.coordinator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.launch.LaunchedWorker;
import dev.faro.cluster.protocol.AuthenticationException;
import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.protocol.FrameChannel;
import dev.faro.cluster.protocol.Handshake;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.protocol.PeerText;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admits one connecting worker: the handshake (a wrong secret is refused with a log line and changes nothing), a
 * node for it, WELCOME with the session settings, READY, then the setup tasks replayed in order; only then does the
 * worker take part in rounds. Coordination code; one virtual thread per connection.
 *
 * <p>Connections that have not authenticated yet are strangers and are held to tight limits: at most
 * {@value #MAX_UNAUTHENTICATED} at a time (beyond that a new connection is closed at once), each closed when it has
 * not proven the secret within {@link #HANDSHAKE_DEADLINE} of its accept (however slowly it drips bytes), small stream
 * buffers until then (see {@link FrameChannel#authenticated()}), and log lines about them {@linkplain RateLimitedLog
 * rate-limited and sanitised}.
 */
final class WorkerAdmission {

    /** From accept to a verified AUTH, at most; a connection still unauthenticated then is closed. */
    static final Duration HANDSHAKE_DEADLINE = Duration.ofSeconds(5);
    /** Concurrent connections that have not authenticated yet; more are closed at once. */
    static final int MAX_UNAUTHENTICATED = 16;

    private final Coordinator coordinator;
    private final ClusterConfig config;
    private final ClusterSecret secret;
    private final java.io.PrintStream log;
    private final RateLimitedLog strangers;
    private final AtomicInteger unauthenticated = new AtomicInteger();

    WorkerAdmission(Coordinator coordinator, ClusterConfig config, ClusterSecret secret, java.io.PrintStream log) {
        this.coordinator = coordinator;
        this.config = config;
        this.secret = secret;
        this.log = log;
        this.strangers = new RateLimitedLog(log);
    }

    /**
     * Takes a freshly accepted connection: closes it at once when {@value #MAX_UNAUTHENTICATED} others are still
     * unauthenticated, else admits it on a virtual thread of its own. Acceptor thread; never blocks.
     */
    void onAccepted(Socket socket) {
        if (unauthenticated.incrementAndGet() > MAX_UNAUTHENTICATED) {
            unauthenticated.decrementAndGet();
            close(socket);
            strangers.log(
                    "cap",
                    "closed a connection from " + socket.getRemoteSocketAddress() + " at once: " + MAX_UNAUTHENTICATED
                            + " connections are still unauthenticated",
                    null);
            return;
        }
        Thread.ofVirtual().name("faro-coordinator-join").start(() -> admit(socket));
    }

    private void admit(Socket socket) {
        AtomicBoolean handshakeOver = new AtomicBoolean();
        Thread deadline = Thread.ofVirtual()
                .name("faro-coordinator-handshake-deadline")
                .start(() -> {
                    try {
                        Thread.sleep(HANDSHAKE_DEADLINE);
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (handshakeOver.compareAndSet(false, true)) {
                        close(socket); // its handshake thread fails at once and logs why
                    }
                });
        Handshake.JoiningWorker joining;
        FrameChannel channel = null;
        try {
            channel = new FrameChannel(socket);
            channel.receiveTimeout(HANDSHAKE_DEADLINE);
            joining = Handshake.authenticateWorker(channel, secret);
            if (!handshakeOver.compareAndSet(false, true)) {
                throw new IOException("closed: no proof of the secret within " + HANDSHAKE_DEADLINE.toMillis() + " ms");
            }
        } catch (AuthenticationException e) {
            strangers.log(
                    "refused", "refused a connection from " + socket.getRemoteSocketAddress() + ": ", e.getMessage());
            closeStranger(socket, channel);
            return;
        } catch (IOException | RuntimeException e) {
            if (handshakeOver.get() && socket.isClosed() || e instanceof SocketTimeoutException) {
                strangers.log(
                        "failed",
                        "a connection from " + socket.getRemoteSocketAddress() + " sent no valid"
                                + " proof of the secret within " + HANDSHAKE_DEADLINE.toMillis() + " ms; closed",
                        null);
            } else {
                strangers.log(
                        "failed",
                        "a connection from " + socket.getRemoteSocketAddress() + " failed before joining: ",
                        String.valueOf(e));
            }
            closeStranger(socket, channel);
            return;
        } finally {
            handshakeOver.set(true);
            deadline.interrupt();
            unauthenticated.decrementAndGet();
        }
        WorkerConnection connection;
        try {
            connection = admit(joining, channel);
            if (connection == null) {
                Handshake.refuse(
                        channel,
                        "the cluster has no free node for this worker (nodes=" + coordinator.nodes()
                                + ", requested node " + joining.requestedNode() + ")");
            }
        } catch (AuthenticationException e) {
            log.println("faro coordinator: refused a worker from " + channel.peer() + ": " + e.getMessage());
            channel.close();
            return;
        } catch (IOException | RuntimeException e) {
            log.println("faro coordinator: a connection from " + channel.peer() + " failed before joining: "
                    + PeerText.sanitize(String.valueOf(e)));
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
                    .put("stallTimeoutMs", config.exchangeStallTimeout().toMillis())
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
                TaskReply ignored = connection
                        .submit(
                                coordinator.nextTaskId(),
                                task.type(),
                                task.payloads().get(node))
                        .get(task.timeout().toNanos(), TimeUnit.NANOSECONDS);
            }
            if (coordinator.onReady(connection) && !setup.isEmpty()) {
                log.println("faro coordinator: " + connection.describe() + " joined; replayed " + setup.size()
                        + " setup task(s)");
            }
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            String reason = connection.describe() + " could not get ready: "
                    + (e instanceof ExecutionException
                            ? e.getCause().getMessage()
                            : e instanceof TimeoutException
                                    ? "no answer within " + config.joinTimeout().toMillis() + " ms"
                                    : "interrupted");
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
            WorkerConnection connection =
                    new WorkerConnection(node, joining.pid(), PeerText.sanitize(joining.host(), 100), channel, process);
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

    private static void closeStranger(Socket socket, FrameChannel channel) {
        if (channel != null) {
            channel.close();
        } else {
            close(socket);
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }
}
