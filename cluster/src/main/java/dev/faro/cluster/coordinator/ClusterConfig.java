package dev.faro.cluster.coordinator;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How to run a cluster. Immutable; start from {@link #local(int)} and adjust with the {@code with*} methods.
 *
 * @param nodes the number of worker nodes
 * @param provider the fabric provider the workers open ({@code shm} by default, {@code net} across hosts)
 * @param providerOptions provider options handed to every worker (e.g. {@code shm.directory}); the same for all, so
 *     per-host addresses use {@code net.bind=auto}: each worker binds its fabric to the address its coordinator
 *     connection leaves from (see {@link dev.faro.cluster.worker.WorkerMain#AUTO_ADDRESS})
 * @param fabricPeerTimeout how long a worker's fabric lets a peer node stay silent before it fails every queue pair
 *     connected to it, or null for {@code heartbeatTimeout} (see {@link #workerFabricPeerTimeout()})
 * @param workerHeap the local workers' {@code -Xmx}, e.g. {@code 3g}
 * @param jvmOptions further JVM options for local workers
 * @param classPath the local workers' class path, or null for this JVM's
 * @param bindAddress where the coordinator listens; loopback unless workers come from other hosts
 * @param port the coordinator's port; 0 for an ephemeral one
 * @param joinTimeout how long the workers may take to start and join the cluster
 * @param replaceTimeout how long a lost worker's replacement may take to start, join and replay the setup tasks, or
 *     null for the join timeout (see {@link #replaceTimeout()})
 * @param heartbeatInterval how often the coordinator pings each worker
 * @param heartbeatTimeout how long a worker may stay silent before it counts as dead
 * @param cancelGrace how long a cancelled task may run on before its worker is replaced
 * @param exchangeTimeout how long a worker's all-gather waits for the other nodes
 * @param exchangeStallTimeout how long a query's shuffle may see no progress at all, on any node, before it fails
 *     with an error naming the exchange and the node it waits for; a slow but progressing shuffle never fails
 * @param forwardWorkerOutput whether the workers' standard output is forwarded too (their standard error always is)
 */
public record ClusterConfig(
        int nodes,
        String provider,
        Map<String, String> providerOptions,
        Duration fabricPeerTimeout,
        String workerHeap,
        List<String> jvmOptions,
        String classPath,
        String bindAddress,
        int port,
        Duration joinTimeout,
        Duration replaceTimeout,
        Duration heartbeatInterval,
        Duration heartbeatTimeout,
        Duration cancelGrace,
        Duration exchangeTimeout,
        Duration exchangeStallTimeout,
        boolean forwardWorkerOutput) {

    public static final String DEFAULT_PROVIDER = "shm";
    public static final String LOOPBACK = "127.0.0.1";

    /**
     * How long a worker may stay silent by default: 8 s, eight pings at the default 1 s interval. A GC or scheduling
     * stall of 2-3 s on the worker, then another on the coordinator's reader, adds up to about 6 s of silence on a
     * loaded 2-core host, and must not cost a healthy worker; a stopped worker is still given up within seconds. A
     * pause of the coordinator itself is never counted (see {@code Supervision}).
     */
    public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(8);

    /**
     * How long a query's shuffle may see no progress anywhere by default: 10 s. Progress is counted on every node
     * (batches moved) and relayed with the heartbeats (one to two heartbeat intervals late), so a node waiting for a
     * peer that is still computing is not stalled; a GC or scheduling stall of a few seconds fits easily. Longer than
     * the heartbeat timeout, so a stopped worker is blamed as such before its peers report a stalled exchange.
     */
    public static final Duration DEFAULT_EXCHANGE_STALL_TIMEOUT = Duration.ofSeconds(10);

    public ClusterConfig {
        Objects.requireNonNull(provider, "provider is null");
        Objects.requireNonNull(workerHeap, "workerHeap is null");
        Objects.requireNonNull(bindAddress, "bindAddress is null");
        providerOptions = Map.copyOf(providerOptions);
        jvmOptions = List.copyOf(jvmOptions);
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be positive: nodes=" + nodes);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: port=" + port);
        }
        positive(joinTimeout, "joinTimeout");
        if (replaceTimeout != null) {
            positive(replaceTimeout, "replaceTimeout");
        }
        positive(heartbeatInterval, "heartbeatInterval");
        positive(heartbeatTimeout, "heartbeatTimeout");
        positive(cancelGrace, "cancelGrace");
        positive(exchangeTimeout, "exchangeTimeout");
        positive(exchangeStallTimeout, "exchangeStallTimeout");
        if (fabricPeerTimeout != null) {
            positive(fabricPeerTimeout, "fabricPeerTimeout");
        }
        if (heartbeatTimeout.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("heartbeatTimeout must be at least twice heartbeatInterval: "
                    + heartbeatTimeout + " < 2 * " + heartbeatInterval);
        }
    }

    /** How long a lost worker's replacement may take: the replace timeout if one is set, else the join timeout. */
    @Override
    public Duration replaceTimeout() {
        return replaceTimeout != null ? replaceTimeout : joinTimeout;
    }

    /**
     * How long a round waits for every node to have a ready worker: the longer of the join and replace timeouts and a
     * cancel grace more (a node that lost its worker to a joining one is given up sooner, at its replace timeout).
     */
    Duration readyTimeout() {
        Duration longer = joinTimeout.compareTo(replaceTimeout()) >= 0 ? joinTimeout : replaceTimeout();
        return longer.plus(cancelGrace);
    }

    /**
     * The peer timeout the workers' fabrics use. By default the cluster's {@code heartbeatTimeout}: a fabric that gives
     * up on a peer sooner than the coordinator would (the {@code net} fabric's own default is 3 s) turns a worker that
     * merely paused (a long GC, a starved CPU) into failed queue pairs, and since a failed fabric peer never comes back
     * every later query would fail against it while the coordinator still counts the worker alive.
     */
    public Duration workerFabricPeerTimeout() {
        return fabricPeerTimeout != null ? fabricPeerTimeout : heartbeatTimeout;
    }

    /** A local cluster of {@code nodes} workers on {@code shm}, listening on loopback, with the default timeouts. */
    public static ClusterConfig local(int nodes) {
        return new ClusterConfig(
                nodes,
                DEFAULT_PROVIDER,
                Map.of(),
                null,
                defaultWorkerHeap(nodes),
                List.of(),
                null,
                LOOPBACK,
                0,
                Duration.ofSeconds(60),
                null,
                Duration.ofSeconds(1),
                DEFAULT_HEARTBEAT_TIMEOUT,
                Duration.ofSeconds(5),
                Duration.ofSeconds(120),
                DEFAULT_EXCHANGE_STALL_TIMEOUT,
                false);
    }

    /**
     * A quarter of this host's memory split among the workers, between 256 MiB and 3 GiB each (2 workers on a 24 GiB
     * host get 3 GiB each).
     */
    public static String defaultWorkerHeap(int nodes) {
        long total = 8L << 30;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            total = os.getTotalMemorySize();
        }
        long perWorkerMiB = Math.clamp(total / 4 / Math.max(1, nodes) >> 20, 256L, 3072L);
        return perWorkerMiB % 1024 == 0 ? perWorkerMiB / 1024 + "g" : perWorkerMiB + "m";
    }

    public ClusterConfig withNodes(int value) {
        return edit(c -> c.nodes = value);
    }

    public ClusterConfig withProvider(String value) {
        return edit(c -> c.provider = value);
    }

    public ClusterConfig withProviderOption(String key, String value) {
        return edit(c -> {
            c.providerOptions = new HashMap<>(c.providerOptions);
            c.providerOptions.put(key, value);
        });
    }

    public ClusterConfig withFabricPeerTimeout(Duration value) {
        return edit(c -> c.fabricPeerTimeout = value);
    }

    public ClusterConfig withWorkerHeap(String value) {
        return edit(c -> c.workerHeap = value);
    }

    public ClusterConfig withJvmOptions(List<String> value) {
        return edit(c -> c.jvmOptions = value);
    }

    public ClusterConfig withClassPath(String value) {
        return edit(c -> c.classPath = value);
    }

    public ClusterConfig withBind(String address, int value) {
        return edit(c -> {
            c.bindAddress = address;
            c.port = value;
        });
    }

    public ClusterConfig withJoinTimeout(Duration value) {
        return edit(c -> c.joinTimeout = value);
    }

    /** How long a lost worker's replacement may take; null: as long as the join timeout. */
    public ClusterConfig withReplaceTimeout(Duration value) {
        return edit(c -> c.replaceTimeout = value);
    }

    public ClusterConfig withHeartbeat(Duration interval, Duration timeout) {
        return edit(c -> {
            c.heartbeatInterval = interval;
            c.heartbeatTimeout = timeout;
        });
    }

    public ClusterConfig withCancelGrace(Duration value) {
        return edit(c -> c.cancelGrace = value);
    }

    public ClusterConfig withExchangeTimeout(Duration value) {
        return edit(c -> c.exchangeTimeout = value);
    }

    public ClusterConfig withExchangeStallTimeout(Duration value) {
        return edit(c -> c.exchangeStallTimeout = value);
    }

    public ClusterConfig withForwardWorkerOutput(boolean value) {
        return edit(c -> c.forwardWorkerOutput = value);
    }

    /** This configuration with the fields {@code change} sets on a copy of them (checked again by the constructor). */
    private ClusterConfig edit(Consumer<Copy> change) {
        Copy copy = new Copy(this);
        change.accept(copy);
        return copy.build();
    }

    /** The record's fields, mutable, for the {@code with*} methods. */
    private static final class Copy {
        private int nodes;
        private String provider;
        private Map<String, String> providerOptions;
        private Duration fabricPeerTimeout;
        private String workerHeap;
        private List<String> jvmOptions;
        private String classPath;
        private String bindAddress;
        private int port;
        private Duration joinTimeout;
        private Duration replaceTimeout;
        private Duration heartbeatInterval;
        private Duration heartbeatTimeout;
        private Duration cancelGrace;
        private Duration exchangeTimeout;
        private Duration exchangeStallTimeout;
        private boolean forwardWorkerOutput;

        Copy(ClusterConfig config) {
            nodes = config.nodes;
            provider = config.provider;
            providerOptions = config.providerOptions;
            fabricPeerTimeout = config.fabricPeerTimeout;
            workerHeap = config.workerHeap;
            jvmOptions = config.jvmOptions;
            classPath = config.classPath;
            bindAddress = config.bindAddress;
            port = config.port;
            joinTimeout = config.joinTimeout;
            replaceTimeout = config.replaceTimeout;
            heartbeatInterval = config.heartbeatInterval;
            heartbeatTimeout = config.heartbeatTimeout;
            cancelGrace = config.cancelGrace;
            exchangeTimeout = config.exchangeTimeout;
            exchangeStallTimeout = config.exchangeStallTimeout;
            forwardWorkerOutput = config.forwardWorkerOutput;
        }

        ClusterConfig build() {
            return new ClusterConfig(
                    nodes,
                    provider,
                    providerOptions,
                    fabricPeerTimeout,
                    workerHeap,
                    jvmOptions,
                    classPath,
                    bindAddress,
                    port,
                    joinTimeout,
                    replaceTimeout,
                    heartbeatInterval,
                    heartbeatTimeout,
                    cancelGrace,
                    exchangeTimeout,
                    exchangeStallTimeout,
                    forwardWorkerOutput);
        }
    }

    /** How long a worker waits for any frame from the coordinator before it gives up and exits. */
    Duration workerSilenceTimeout() {
        Duration threeTimes = heartbeatTimeout.multipliedBy(3);
        return threeTimes.compareTo(Duration.ofSeconds(15)) < 0 ? Duration.ofSeconds(15) : threeTimes;
    }

    private static void positive(Duration value, String name) {
        Objects.requireNonNull(value, name + " is null");
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + name + "=" + value);
        }
    }
}
