package dev.faro.bench.fabric;

import dev.faro.cluster.ClusterException;
import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.cluster.coordinator.LocalCluster;
import dev.faro.cluster.coordinator.NodeAnswer;
import dev.faro.fabric.FaroException;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The coordinator's side of {@code faro bench fabric}: a cluster ({@code dev.faro.cluster}) of two workers, node 0 the
 * initiator and node 1 the target, each serving {@link FabricBenchHandler} tasks: two worker JVMs this process starts
 * ({@link #start()}), or two workers that joined from elsewhere ({@link #join}, {@code --listen}). Every command is one
 * round on both nodes, the other one idle. Local workers inherit this process's environment, so {@code UCX_*} settings
 * reach the {@code ucx} provider they open; joined workers have their own.
 *
 * <p>Coordination code; one thread sends commands and closes it.
 */
public final class FabricBenchCluster implements AutoCloseable {

    /** The workers' heap: their buffers are off-heap. */
    static final String WORKER_MAX_HEAP = "128m";

    /** Serial GC: no GC threads competing with the measured threads on small machines; no perf-data files. */
    static final List<String> WORKER_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:-UsePerfData");

    /** How long a command other than a measurement may take. */
    static final Duration REPLY_TIMEOUT = Duration.ofSeconds(30);

    /** Heartbeats: generous, because the measured threads keep every core busy. */
    private static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(1);

    private static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(10);

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final Coordinator cluster;

    /** The workers the benchmark started with: a replacement has none of their state, so it cannot go on. */
    private final List<Long> startPids;

    /** For joined workers: the address their {@code net} nodes bind to the route towards; null for local workers. */
    private final InetAddress coordinatorAddress;

    private FabricBenchCluster(Coordinator cluster, InetAddress coordinatorAddress) {
        this.cluster = cluster;
        this.startPids = List.copyOf(cluster.workerPids());
        this.coordinatorAddress = coordinatorAddress;
    }

    /**
     * Starts the two workers; their standard error goes to this process's.
     *
     * @throws ClusterException if they cannot be started or do not join
     */
    static FabricBenchCluster start() {
        ClusterConfig config = ClusterConfig.local(2)
                .withWorkerHeap(WORKER_MAX_HEAP)
                .withJvmOptions(WORKER_JVM_OPTIONS)
                .withHeartbeat(HEARTBEAT_INTERVAL, HEARTBEAT_TIMEOUT);
        return new FabricBenchCluster(LocalCluster.start(config), null);
    }

    /**
     * Listens for the two workers {@code joined} describes (started elsewhere with {@code faro worker --join}) and
     * waits until both have joined; {@code progress} gets the listening and joining lines.
     *
     * @throws IllegalArgumentException if {@code joined} is a local start or not of two workers
     * @throws ClusterException if the workers do not both join within the join timeout
     */
    public static FabricBenchCluster join(ClusterStart joined, Consumer<String> progress) {
        Objects.requireNonNull(progress, "progress is null");
        if (!joined.isJoining() || joined.config().nodes() != 2) {
            throw new IllegalArgumentException("not a cluster of two joining workers: " + joined.config());
        }
        ClusterStart start = joined.withConfig(joined.config().withHeartbeat(HEARTBEAT_INTERVAL, HEARTBEAT_TIMEOUT));
        Coordinator coordinator = start.start(progress);
        InetAddress address = coordinator.address().getAddress();
        return new FabricBenchCluster(coordinator, address.isAnyLocalAddress() ? thisHost() : address);
    }

    /**
     * An address of this host that other hosts may reach, for a coordinator bound to every interface: its name's, or
     * when that is a loopback address (Debian's {@code 127.0.1.1}) the first IPv4 address of an interface that is up
     * and not loopback; loopback when there is none.
     */
    private static InetAddress thisHost() {
        try {
            InetAddress named = InetAddress.getLocalHost();
            if (!named.isLoopbackAddress()) {
                return named;
            }
            for (NetworkInterface face : NetworkInterface.networkInterfaces().toList()) {
                if (face.isUp() && !face.isLoopback()) {
                    for (InetAddress candidate : face.inetAddresses().toList()) {
                        if (candidate instanceof Inet4Address) {
                            return candidate;
                        }
                    }
                }
            }
        } catch (IOException e) {
            // loopback below
        }
        return InetAddress.getLoopbackAddress();
    }

    /** Whether the workers joined from elsewhere (and may be on other hosts than this one and each other's). */
    boolean joined() {
        return coordinatorAddress != null;
    }

    /**
     * The {@code OPEN} fabric options for {@code provider} that depend on where the workers are: for joined workers
     * on {@code net}, bind to the interface that reaches the coordinator (see {@link FabricBenchWorker#ROUTE_PREFIX});
     * else none.
     */
    String placementOptions(String provider) {
        if (coordinatorAddress == null || !provider.equals("net")) {
            return "";
        }
        return "," + FabricBenchWorker.BIND_OPTION + "=" + FabricBenchWorker.ROUTE_PREFIX
                + coordinatorAddress.getHostAddress();
    }

    /** The workers' process ids by node (0 while a node has no worker). */
    List<Long> workerPids() {
        return cluster.workerPids();
    }

    /** Sends {@code command} to {@code node} and returns its reply, waiting at most {@link #REPLY_TIMEOUT}. */
    String request(int node, String command) {
        return request(node, command, REPLY_TIMEOUT);
    }

    /**
     * Sends one command to {@code node} and waits for its reply.
     *
     * @return the reply's text (empty when the worker sent none)
     * @throws FaroException one line naming the worker and the command, when the worker fails it, dies or does not
     *     answer in time
     */
    String request(int node, String command, Duration timeout) {
        String verb = command.strip().split(" ", 2)[0];
        requireFirstWorkers(verb);
        List<NodeAnswer> answers;
        try {
            answers = cluster.runOnEach(
                    2, FabricBenchHandler.TYPE, n -> FabricBenchHandler.payload(n == node ? command : ""), timeout);
        } finally {
            requireFirstWorkers(verb);
        }
        NodeAnswer answer = answers.get(node);
        NodeAnswer other = answers.get(1 - node);
        if (!answer.succeeded() || !other.succeeded()) {
            NodeAnswer failed = answer.succeeded() ? other : answer;
            ClusterException failure = failed.failure();
            throw new FaroException(
                    failure.category(),
                    "worker '" + FabricBenchHandler.role(failed.node()) + "' failed " + verb + ": "
                            + failure.getMessage());
        }
        return answer.reply().result().path("reply").asText("");
    }

    /** Fails when a worker the benchmark started with was lost (the cluster replaces it, without its state). */
    private void requireFirstWorkers(String verb) {
        List<Long> pids = cluster.workerPids();
        for (int node = 0; node < startPids.size(); node++) {
            if (!pids.get(node).equals(startPids.get(node))) {
                throw new FaroException(
                        FaroException.Category.NETWORK,
                        "worker '" + FabricBenchHandler.role(node) + "' (node " + node + ", pid " + startPids.get(node)
                                + ") died by the time of " + verb + "; its fabric node and buffers went with it");
            }
        }
    }

    /** Closes both workers' benchmark nodes, then shuts the cluster down (joined workers exit). Never throws. */
    @Override
    public void close() {
        closeNodes();
        cluster.close();
    }

    /** Closes both workers' benchmark nodes; the workers stay, for the next provider. Never throws. */
    void closeNodes() {
        try {
            cluster.runOnEach(
                    2,
                    FabricBenchHandler.TYPE,
                    n -> FabricBenchHandler.payload(FabricBenchHandler.CLOSE),
                    CLOSE_TIMEOUT);
        } catch (RuntimeException e) {
            // the workers go anyway; a node's files are swept by the next node that opens the directory
        }
    }
}
