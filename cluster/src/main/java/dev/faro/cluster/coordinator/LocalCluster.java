package dev.faro.cluster.coordinator;

import dev.faro.cluster.protocol.ClusterSecret;

/**
 * Starts a local cluster: a {@link Coordinator} in this process, listening on loopback, and {@code nodes} worker
 * JVMs on this host ({@code shm} fabric by default), joined with a secret generated for this cluster and handed to
 * the workers through their environment. A JVM shutdown hook closes the cluster on Ctrl-C; the workers also exit
 * when their connection to this process drops, so no process outlives it.
 *
 * <pre>{@code
 * try (Coordinator cluster = LocalCluster.start(ClusterConfig.local(2))) {
 *     List<TaskReply> replies = cluster.runOnAll("echo", payload, Duration.ofSeconds(30));
 * }
 * }</pre>
 */
public final class LocalCluster {

    private LocalCluster() {}

    /**
     * Starts the coordinator and the workers and waits until every worker joined.
     *
     * @throws dev.faro.cluster.ClusterException when the workers do not join within the join timeout (everything
     *     started is stopped again)
     */
    public static Coordinator start(ClusterConfig config) {
        Coordinator coordinator = closedAtExit(Coordinator.open(config, ClusterSecret.generate(), true));
        try {
            coordinator.awaitWorkers(config.joinTimeout());
            return coordinator;
        } catch (RuntimeException e) {
            coordinator.close();
            throw e;
        }
    }

    /**
     * Closes {@code coordinator} when the JVM exits (Ctrl-C, SIGTERM: the workers are told to stop rather than left to
     * notice the lost connection); the hook goes when the coordinator closes first. Returns {@code coordinator}.
     */
    static Coordinator closedAtExit(Coordinator coordinator) {
        Thread hook = new Thread(coordinator::close, "faro-cluster-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        coordinator.onClose(() -> {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to
            }
        });
        return coordinator;
    }
}
