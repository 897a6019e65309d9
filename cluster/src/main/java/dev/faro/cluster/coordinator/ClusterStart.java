package dev.faro.cluster.coordinator;

import dev.faro.cluster.protocol.ClusterSecret;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where a command's workers come from: started here by {@link LocalCluster} (worker JVMs on this host), or started
 * elsewhere and joining a coordinator that {@linkplain Coordinator#listen listens} for them (several hosts: {@code
 * faro worker --join HOST:PORT} by hand, ssh, srun or mpirun). Immutable; coordination code.
 *
 * @param config the cluster's configuration; for joining workers, its bind address and port are where to listen and
 *     its join timeout how long to wait for them
 * @param secret the secret joining workers prove, or null for a local cluster (which generates its own)
 */
public record ClusterStart(ClusterConfig config, ClusterSecret secret) {

    public ClusterStart {
        Objects.requireNonNull(config, "config is null");
    }

    /** A local cluster: {@code config.nodes()} worker JVMs started on this host. */
    public static ClusterStart local(ClusterConfig config) {
        return new ClusterStart(config, null);
    }

    /**
     * A coordinator listening at {@code config}'s bind address for {@code config.nodes()} workers that know
     * {@code secret}.
     */
    public static ClusterStart joining(ClusterConfig config, ClusterSecret secret) {
        return new ClusterStart(config, Objects.requireNonNull(secret, "secret is null"));
    }

    /** Whether the workers are started elsewhere and join. */
    public boolean isJoining() {
        return secret != null;
    }

    /** This start with {@code value} as its configuration. */
    public ClusterStart withConfig(ClusterConfig value) {
        return new ClusterStart(value, secret);
    }

    /**
     * Starts the cluster and waits until every worker is ready: a local cluster launches its workers; otherwise the
     * coordinator listens, tells {@code progress} where, and reports the workers as they join ({@link
     * Coordinator#awaitWorkers(java.time.Duration, Consumer)}). Either way the coordinator is closed when the JVM
     * exits.
     *
     * @throws dev.faro.cluster.ClusterException when the workers are not all ready within the join timeout (what
     *     started is stopped again); {@link dev.faro.fabric.FaroException} when the address cannot be bound
     */
    public Coordinator start(Consumer<String> progress) {
        if (!isJoining()) {
            return LocalCluster.start(config);
        }
        Coordinator coordinator = LocalCluster.closedAtExit(Coordinator.listen(config, secret));
        try {
            String address = coordinator.joinHint();
            progress.accept("listening on " + address + " for " + config.nodes() + " worker"
                    + (config.nodes() == 1 ? "" : "s") + " (" + config.provider() + " fabric); on each worker host"
                    + " run: faro worker --join " + address + " with the same secret (--secret-file or $"
                    + ClusterSecret.ENVIRONMENT_VARIABLE + ")");
            coordinator.awaitWorkers(config.joinTimeout(), progress);
            return coordinator;
        } catch (RuntimeException e) {
            coordinator.close();
            throw e;
        }
    }
}
