package dev.faro.cluster.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.ClusterException;
import dev.faro.cluster.ClusterException.Kind;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.launch.ChildProcesses;
import dev.faro.cluster.launch.LaunchedWorker;
import dev.faro.cluster.launch.WorkerLauncher;
import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.FaroException.Category;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The coordinator of a cluster: listens for workers, admits those that prove the shared secret, runs task rounds
 * ({@link #runOnAll}: one typed JSON task on every node, replies gathered by node), relays the workers'
 * all-gathers, watches the workers (connection end, process exit, heartbeats) and replaces lost ones: a local
 * cluster launches a new worker JVM, a multi-host cluster waits for a worker to join by hand; either way the
 * {@linkplain #addSetupTask setup tasks} are replayed on it before it counts as ready.
 *
 * <p>A failed round throws a {@link ClusterException} at once, with a one-line message naming the node; the task is
 * cancelled on the other nodes, and a node whose task does not end within {@link ClusterConfig#cancelGrace()} gets
 * its worker replaced. The next round waits (up to the join timeout) until every node is ready and idle again.
 *
 * <p>Threads: rounds run one at a time (concurrent callers queue). A virtual acceptor thread and one virtual thread
 * per joining worker admit workers; one reader thread per worker; one supervisor thread pings, detects silence and
 * overdue cancels, and launches replacements. The monitor of this object guards the slots. Coordination code.
 */
public final class Coordinator implements AutoCloseable {

    private static final Duration SUPERVISOR_PERIOD = Duration.ofMillis(100);
    private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(3);

    /** One node's place. Fields guarded by the coordinator's monitor. */
    static final class Slot {
        WorkerConnection connection;
        boolean ready;
        LaunchedWorker launched;
        long launchedAtNanos;
        long lastPingNanos;
        /** Why the last attempt to fill this slot failed; reported (and cleared) by the next round. */
        String unavailable;
        /** The last worker this slot lost and how ("node 1 (pid 7 on b) closed its connection"), or null. */
        String lost;
        /** When {@link #lost} was lost ({@link System#nanoTime()}). */
        long lostAtNanos;
    }

    private final ClusterConfig config;
    private final ClusterSecret secret;
    private final ServerSocket server;
    private final WorkerLauncher launcher;
    private final PrintStream log;
    private final GatherRelay gathers = new GatherRelay();
    private final AtomicLong taskIds = new AtomicLong();
    private final ReentrantLock rounds = new ReentrantLock();
    private final Thread supervisor;
    private final Slot[] slots;
    private final List<SetupTask> setupTasks = new ArrayList<>();
    private final List<Runnable> closeActions = new ArrayList<>();
    private final WorkerAdmission admission;
    private boolean closed;

    private Coordinator(ClusterConfig config, ClusterSecret secret, boolean launchLocal, PrintStream log)
            throws IOException {
        this.config = config;
        this.secret = secret;
        this.log = log;
        this.slots = new Slot[config.nodes()];
        Arrays.setAll(slots, i -> new Slot());
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getByName(config.bindAddress()), config.port()), 64);
        this.launcher = launchLocal
                ? new WorkerLauncher(
                        joinAddress(),
                        secret,
                        config.classPath() != null ? config.classPath() : WorkerLauncher.currentClassPath(),
                        config.workerHeap(),
                        config.jvmOptions(),
                        log,
                        config.forwardWorkerOutput(),
                        this::removeLeftovers)
                : null;
        this.admission = new WorkerAdmission(this, config, secret, log);
        Thread.ofVirtual().name("faro-coordinator-acceptor").start(this::accept);
        this.supervisor =
                Thread.ofPlatform().daemon().name("faro-coordinator-supervisor").start(this::supervise);
    }

    /**
     * A coordinator for workers started by hand ({@code WorkerMain --join HOST:PORT}) on any host: listens on
     * {@code bindAddress:port} and admits {@code expectedNodes} workers that know {@code secret}; other settings are
     * {@link ClusterConfig#local}'s.
     */
    public static Coordinator listen(String bindAddress, int port, ClusterSecret secret, int expectedNodes) {
        return listen(ClusterConfig.local(expectedNodes).withBind(bindAddress, port), secret);
    }

    /** A coordinator for workers started by hand, with the given configuration (launch settings are unused). */
    public static Coordinator listen(ClusterConfig config, ClusterSecret secret) {
        return open(config, secret, false);
    }

    static Coordinator open(ClusterConfig config, ClusterSecret secret, boolean launchLocal) {
        try {
            return new Coordinator(config, secret, launchLocal, System.err);
        } catch (IOException e) {
            throw new FaroException(
                    Category.IO,
                    "the coordinator cannot listen on " + config.bindAddress() + ":" + config.port() + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** Where the coordinator listens. */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** The address workers on this host join: the bound one, loopback when bound to the wildcard address. */
    public InetSocketAddress joinAddress() {
        InetSocketAddress bound = address();
        return bound.getAddress().isAnyLocalAddress()
                ? new InetSocketAddress(InetAddress.getLoopbackAddress(), bound.getPort())
                : bound;
    }

    public int nodes() {
        return slots.length;
    }

    public ClusterConfig config() {
        return config;
    }

    /** Waits until every node has a ready, idle worker; throws {@link ClusterException} when that takes too long. */
    public void awaitWorkers(Duration timeout) {
        awaitReady(System.nanoTime() + timeout.toNanos());
    }

    /**
     * Like {@link #awaitWorkers(Duration)}, telling {@code progress} at once and then each time workers got ready:
     * {@code waiting for workers: 1 of 3 joined (node 0: host a, pid 1234)}, naming the ones that joined since the last
     * line. After {@code timeout} without all of them it throws a {@link ClusterException} whose one-line message
     * says how many joined and where the others join.
     */
    public void awaitWorkers(Duration timeout, Consumer<String> progress) {
        long deadlineNanos = System.nanoTime() + timeout.toNanos();
        Set<String> reported = new HashSet<>();
        boolean first = true;
        while (true) {
            List<String> joined;
            boolean allReady;
            synchronized (this) {
                allReady = readyMembers() != null;
                joined = joinedWorkers();
                if (!allReady && !first && reported.containsAll(joined) && System.nanoTime() - deadlineNanos < 0) {
                    waitBriefly(deadlineNanos);
                    continue;
                }
            }
            List<String> fresh =
                    joined.stream().filter(worker -> !reported.contains(worker)).toList();
            if (first || !fresh.isEmpty()) {
                progress.accept("waiting for workers: " + joined.size() + " of " + slots.length + " joined"
                        + (fresh.isEmpty() ? "" : " (" + String.join("; ", fresh) + ")"));
                reported.addAll(fresh);
                first = false;
            }
            if (allReady) {
                return;
            }
            if (System.nanoTime() - deadlineNanos >= 0) {
                if (joined.size() < slots.length) {
                    throw new ClusterException(
                            Kind.NODE_UNAVAILABLE,
                            Category.TIMEOUT,
                            firstUnready(),
                            "only "
                                    + joined.size() + " of " + slots.length + " workers joined within "
                                    + seconds(timeout) + "; start the others with --join " + joinHint()
                                    + " and the cluster's secret");
                }
                awaitReady(deadlineNanos); // every node has a worker, one still busy: its own message
                return;
            }
        }
    }

    /** Whether this coordinator starts (and replaces) its workers itself, as a local cluster does. */
    public boolean launchesWorkers() {
        return launcher != null;
    }

    /** Runs task {@code type} with the same {@code payload} on every node; see {@link #runOnAll(String, IntFunction, Duration)}. */
    public List<TaskReply> runOnAll(String type, JsonNode payload, Duration timeout) {
        return runOnAll(type, node -> payload, timeout);
    }

    /**
     * Runs task {@code type} on every node, with {@code payloadForNode.apply(node)} as its payload, and returns the
     * replies by node. Waits first (up to the join timeout) until every node has a ready, idle worker.
     *
     * @param timeout how long the task may run on the slowest node
     * @throws ClusterException when a node fails or dies, the round times out, or a node has no worker; the task is
     *     cancelled on the other nodes and the cluster recovers by itself for the next round
     */
    public List<TaskReply> runOnAll(String type, IntFunction<JsonNode> payloadForNode, Duration timeout) {
        rounds.lock();
        try {
            return new TaskRound(this, type, payloadForNode, timeout).run();
        } finally {
            rounds.unlock();
        }
    }

    /**
     * Runs task {@code type} on the first {@code nodes} nodes only (the others stay idle; the tasks' contexts and
     * all-gathers count {@code nodes}) and returns every node's answer, replies and failures alike, by node. A failure
     * does not end the round: it cancels the task on the nodes still running, and the round waits for their answers
     * too; nodes still running at {@code timeout} are cancelled and answered with a {@code TIMEOUT} failure. For
     * callers that report each node's outcome (benchmarks, failure tests). Waits first, like {@link #runOnAll}, until
     * every node of the cluster has a ready, idle worker.
     */
    public List<NodeAnswer> runOnEach(int nodes, String type, IntFunction<JsonNode> payloadForNode, Duration timeout) {
        rounds.lock();
        try {
            return new EveryNodeRound(this, nodes, type, payloadForNode, timeout).run();
        } finally {
            rounds.unlock();
        }
    }

    /** Tells {@code listener} about every all-gather this coordinator completes from now on. */
    public void addExchangeListener(ExchangeListener listener) {
        gathers.addListener(java.util.Objects.requireNonNull(listener, "listener is null"));
    }

    /**
     * Runs a session setup task on every node now (like {@link #runOnAll}) and, if it succeeds, records it to be
     * replayed in order on every replacement worker before that worker takes part in a round. Setup tasks must work
     * on one node alone (no all-gather): a replay runs on the replacement only. Payloads are captured now.
     */
    public List<TaskReply> addSetupTask(String type, IntFunction<JsonNode> payloadForNode, Duration timeout) {
        List<JsonNode> payloads = new ArrayList<>();
        for (int node = 0; node < slots.length; node++) {
            payloads.add(payloadForNode.apply(node));
        }
        rounds.lock();
        try {
            List<TaskReply> replies = new TaskRound(this, type, payloads::get, timeout).run();
            synchronized (this) {
                setupTasks.add(new SetupTask(type, payloads, timeout));
            }
            return replies;
        } finally {
            rounds.unlock();
        }
    }

    /** The pid of each node's current worker, -1 for a node without one (diagnostics, tests). */
    public synchronized List<Long> workerPids() {
        List<Long> pids = new ArrayList<>();
        for (Slot slot : slots) {
            pids.add(slot.connection == null ? -1L : slot.connection.pid());
        }
        return pids;
    }

    /** Runs {@code action} once when the coordinator closes. */
    public synchronized void onClose(Runnable action) {
        closeActions.add(action);
    }

    /**
     * Shuts the workers down (they exit), closes the listener, makes sure every local worker process ended
     * (SIGTERM, then SIGKILL) and removes what killed ones left (their fabric files). Idempotent; never throws.
     */
    @Override
    public void close() {
        List<WorkerConnection> connections = new ArrayList<>();
        List<LaunchedWorker> processes = new ArrayList<>();
        List<Runnable> actions;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            for (Slot slot : slots) {
                if (slot.connection != null) {
                    connections.add(slot.connection);
                }
                if (slot.launched != null) {
                    processes.add(slot.launched);
                }
            }
            actions = List.copyOf(closeActions);
            notifyAll();
        }
        supervisor.interrupt();
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (WorkerConnection connection : connections) {
            connection.shutdown();
        }
        long deadline = System.nanoTime() + SHUTDOWN_WAIT.toNanos();
        for (LaunchedWorker process : processes) {
            if (!process.awaitExit(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                process.destroy(Duration.ofSeconds(1));
            }
        }
        if (launcher != null) {
            removeLeftovers(); // of workers that had to be killed
        }
        for (Runnable action : actions) {
            try {
                action.run();
            } catch (RuntimeException e) {
                log.println("faro coordinator: a close action failed: " + e);
            }
        }
    }

    /** Removes what dead local workers left behind (the fabric's files of a killed worker). Never throws. */
    private void removeLeftovers() {
        try {
            Fabrics.removeLeftovers(config.provider(), config.providerOptions());
        } catch (RuntimeException e) {
            log.println("faro coordinator: cannot remove the files of a dead worker: " + e.getMessage());
        }
    }

    synchronized boolean isClosed() {
        return closed;
    }

    Slot[] slots() {
        return slots;
    }

    GatherRelay gathers() {
        return gathers;
    }

    long nextTaskId() {
        return taskIds.incrementAndGet();
    }

    synchronized List<SetupTask> setupTasks() {
        return List.copyOf(setupTasks);
    }

    /**
     * Waits until every node has a ready, idle worker and returns them by node. Reports (and clears, so the next
     * call tries again) a node that could not be filled.
     */
    synchronized List<WorkerConnection> awaitReady(long deadlineNanos) {
        while (true) {
            List<WorkerConnection> members = readyMembers();
            if (members != null) {
                return members;
            }
            long deadline = replacementDeadline(deadlineNanos);
            if (deadline - System.nanoTime() <= 0) {
                throw new ClusterException(Kind.NODE_UNAVAILABLE, Category.TIMEOUT, firstUnready(), unreadyMessage());
            }
            waitBriefly(deadline);
        }
    }

    /**
     * {@code deadlineNanos}, or earlier when workers join by themselves and a node lost its worker: its place waits the
     * replace timeout from the loss for a new one ({@code --replace-timeout}, by default {@code --join-timeout}), not a
     * cancel grace more.
     */
    private long replacementDeadline(long deadlineNanos) {
        long deadline = deadlineNanos;
        if (launcher == null) {
            for (Slot slot : slots) {
                if (slot.connection == null && slot.lost != null) {
                    long replaceBy = slot.lostAtNanos + config.replaceTimeout().toNanos();
                    if (replaceBy - deadline < 0) {
                        deadline = replaceBy;
                    }
                }
            }
        }
        return deadline;
    }

    /**
     * Every node's ready, idle worker, or null while some node has none; throws when the cluster is closed or a node
     * could not be filled (reporting, and clearing, why). Under the monitor.
     */
    private List<WorkerConnection> readyMembers() {
        if (closed) {
            throw new ClusterException(Kind.CLOSED, Category.CLOSED, -1, "the cluster is closed");
        }
        List<WorkerConnection> members = new ArrayList<>();
        for (int node = 0; node < slots.length; node++) {
            Slot slot = slots[node];
            if (slot.unavailable != null) {
                String reason = slot.unavailable;
                slot.unavailable = null;
                throw new ClusterException(Kind.NODE_UNAVAILABLE, Category.NETWORK, node, reason);
            }
            WorkerConnection connection = slot.connection;
            if (connection != null && slot.ready && !connection.busy() && !connection.isLost()) {
                members.add(connection);
            }
        }
        return members.size() == slots.length ? members : null;
    }

    /** The ready workers as "node 0: host a, pid 1234". Under the monitor. */
    private List<String> joinedWorkers() {
        List<String> joined = new ArrayList<>();
        for (int node = 0; node < slots.length; node++) {
            WorkerConnection connection = slots[node].connection;
            if (connection != null && slots[node].ready && !connection.isLost()) {
                joined.add("node " + node + ": " + connection.host() + ", pid " + connection.pid());
            }
        }
        return joined;
    }

    /** Waits on the monitor for a change, at most 50 ms and not past {@code deadlineNanos}. Under the monitor. */
    private void waitBriefly(long deadlineNanos) {
        try {
            wait(Math.max(1, Math.min(50, (deadlineNanos - System.nanoTime()) / 1_000_000)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException(Kind.CLOSED, Category.CLOSED, -1, "interrupted while waiting for workers");
        }
    }

    /**
     * Where workers from other hosts join, as {@code HOST:PORT}: the bound address ({@code [v6]} in brackets), or this
     * host's name when bound to the wildcard address.
     */
    String joinHint() {
        InetAddress bound = address().getAddress();
        String host;
        if (bound.isAnyLocalAddress()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                host = "THIS-HOST";
            }
        } else {
            host = bound instanceof java.net.Inet6Address ? "[" + bound.getHostAddress() + "]" : bound.getHostAddress();
        }
        return host + ":" + address().getPort();
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    private int firstUnready() {
        for (int node = 0; node < slots.length; node++) {
            if (slots[node].connection == null || !slots[node].ready) {
                return node;
            }
        }
        return -1;
    }

    private String unreadyMessage() {
        List<String> problems = new ArrayList<>();
        boolean replacing = false;
        for (int node = 0; node < slots.length; node++) {
            Slot slot = slots[node];
            replacing |= launcher == null && slot.connection == null && slot.lost != null;
            if (slot.connection == null) {
                problems.add("node " + node + " has no worker"
                        + (launcher == null
                                ? (slot.lost != null
                                        ? " since " + slot.lost + " (the coordinator cannot start one on"
                                                + " another host: start one with --join " + joinHint() + ")"
                                        : " (start one with --join " + joinHint() + ")")
                                : slot.launched != null
                                        ? " (pid " + slot.launched.pid() + " has not joined yet)"
                                        : ""));
            } else if (!slot.ready) {
                problems.add(slot.connection.describe() + " is still getting ready");
            } else if (slot.connection.busy()) {
                problems.add(slot.connection.describe() + " is still running a cancelled task");
            }
        }
        return "the cluster is not ready after the " + (replacing ? "replace" : "join") + " timeout: "
                + String.join("; ", problems);
    }

    /** The worker got ready (setup replayed); returns false when it was lost meanwhile. */
    synchronized boolean onReady(WorkerConnection connection) {
        Slot slot = slots[connection.node()];
        if (slot.connection != connection || connection.isLost()) {
            return false;
        }
        slot.ready = true;
        notifyAll();
        return true;
    }

    /** A worker could not get ready; the next round reports {@code reason}. */
    synchronized void onJoinFailed(WorkerConnection connection, String reason) {
        Slot slot = slots[connection.node()];
        if (!closed && (slot.connection == connection || slot.connection == null)) {
            slot.unavailable = reason;
        }
    }

    /** A worker is gone (reader thread, after the loss was recorded): frees its slot for a replacement. */
    void onLost(WorkerConnection connection) {
        LaunchedWorker process = connection.process();
        synchronized (this) {
            Slot slot = slots[connection.node()];
            if (slot.connection == connection) {
                slot.lost = connection.describe() + " " + connection.lostWhat();
                slot.lostAtNanos = System.nanoTime();
                if (!slot.ready && slot.unavailable == null && !closed) {
                    slot.unavailable = connection.describe() + " " + connection.lostWhat() + " before it was ready";
                }
                slot.connection = null;
                slot.ready = false;
                if (process != null && slot.launched == process) {
                    slot.launched = null;
                }
            }
            notifyAll();
        }
        if (process != null && process.isAlive()) {
            process.kill();
        }
        if (!isClosed() && !ChildProcesses.shuttingDown()) {
            log.println("faro coordinator: " + connection.describe() + " " + connection.lostWhat()
                    + (launcher != null
                            ? "; starting a replacement"
                            : "; waiting for a worker to join (the coordinator cannot start one on another host)"));
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                admission.onAccepted(server.accept());
            } catch (IOException e) {
                if (!server.isClosed()) {
                    log.println("faro coordinator: accept failed: " + e);
                }
            }
        }
    }

    private void supervise() {
        Supervision supervision = new Supervision(this, config, launcher, log);
        while (!isClosed()) {
            try {
                supervision.tick(System.nanoTime());
                Thread.sleep(SUPERVISOR_PERIOD);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.println("faro coordinator: supervisor error: " + e);
            }
        }
    }
}
