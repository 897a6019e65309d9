package dev.faro.bench.hyper;

import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.cluster.launch.WorkerLauncher;
import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.worker.WorkerMain;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.net.NetFabricProvider;
import dev.faro.fabric.netns.NetworkNamespaces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A cluster across "hosts" on this machine: {@code nodes} network namespaces on one bridge
 * ({@link NetworkNamespaces#bridged}), one worker JVM in each ({@code ip netns exec ... WorkerMain --join}) on the
 * {@code net} fabric bound to its namespace's address, and a coordinator in this JVM listening on the root namespace's
 * end of the bridge (a private veth address that no other interface reaches). Each host's link can be capped in both
 * directions with {@code tc tbf} ({@link #capLinks}). Needs root, {@code ip} and {@code tc}: {@link #start} fails with
 * one line naming what is missing. Namespaces of an earlier run that was killed are removed at start; {@link #close}
 * (also run by a shutdown hook, for a run ended by a signal) stops the workers and deletes the namespaces, their
 * links and caps. Coordination code.
 */
final class NamespaceCluster implements AutoCloseable {

    private final NetworkNamespaces network;
    private final Path directory;
    private final List<Process> workers = new ArrayList<>();
    private final Thread shutdownHook;
    private final Consumer<String> progress;
    private Coordinator coordinator;
    private boolean closed;

    private NamespaceCluster(NetworkNamespaces network, Path directory, Consumer<String> progress) {
        this.network = network;
        this.directory = directory;
        this.progress = progress;
        this.shutdownHook = new Thread(this::close, "namespace-cluster-cleanup");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Why this machine cannot run it (one line), or null. */
    static String unavailableBecause() {
        return NetworkNamespaces.unavailableBecause(List.of("tc"));
    }

    /** Builds the namespaces and starts a worker in each; fails with {@code NOT_SUPPORTED} where it cannot. */
    static NamespaceCluster start(int nodes, int workerHeapMiB, Consumer<String> progress) {
        String missing = unavailableBecause();
        if (missing != null) {
            throw new FaroException(
                    FaroException.Category.NOT_SUPPORTED,
                    "network namespaces with tc caps need root, ip and tc: " + missing);
        }
        NetworkNamespaces network;
        Path directory;
        try {
            directory = Files.createTempDirectory("faro-netns-");
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a directory for the workers' logs: " + e.getMessage(), e);
        }
        try {
            network = NetworkNamespaces.bridged(nodes); // removes what a killed run left first
        } catch (IOException e) {
            deleteQuietly(directory);
            throw new UncheckedIOException("could not build " + nodes + " network namespaces: " + e.getMessage(), e);
        }
        NamespaceCluster cluster = new NamespaceCluster(network, directory, progress);
        try {
            cluster.launch(nodes, workerHeapMiB);
            return cluster;
        } catch (IOException e) {
            cluster.close();
            throw new UncheckedIOException("could not start workers in the namespaces: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private void launch(int nodes, int workerHeapMiB) throws IOException {
        ClusterSecret secret = ClusterSecret.generate();
        Path secretFile = directory.resolve("cluster-secret");
        secret.writeFile(secretFile);
        ClusterConfig config = ClusterConfig.local(nodes)
                .withBind(network.rootAddress(), 0)
                .withProvider(NetFabricProvider.NAME)
                .withProviderOption(NetFabricProvider.BIND_OPTION, WorkerMain.AUTO_ADDRESS)
                .withHeartbeat(Duration.ofSeconds(1), Duration.ofSeconds(15)) // several JVMs on 2 busy cores
                .withExchangeStallTimeout(Duration.ofSeconds(60)); // a capped link moves a message in tens of ms
        Coordinator listening = Coordinator.listen(config, secret);
        synchronized (this) { // close() (perhaps the shutdown hook's) reads the coordinator and workers under this lock
            coordinator = listening;
            if (closed) {
                listening.close();
                throw new IllegalStateException("the namespace cluster was closed while it started");
            }
        }
        String join = network.rootAddress() + ":" + coordinator.address().getPort();
        byte[] random = new byte[16];
        new SecureRandom().nextBytes(random);
        String fabricSecret = HexFormat.of().formatHex(random);
        for (int host = 0; host < nodes; host++) {
            List<String> command = new ArrayList<>(NetworkNamespaces.inside(network.host(host)));
            command.addAll(WorkerLauncher.joinCommand(
                    join, secretFile, List.of("-Xmx" + workerHeapMiB + "m", "-XX:+UseSerialGC"), host));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(directory.resolve("worker-" + host + ".log").toFile());
            builder.environment().remove(ClusterSecret.ENVIRONMENT_VARIABLE);
            builder.environment().put(NetFabricProvider.SECRET_ENVIRONMENT, fabricSecret);
            Process worker = builder.start();
            synchronized (this) {
                if (closed) {
                    worker.destroyForcibly();
                    throw new IllegalStateException("the namespace cluster was closed while it started");
                }
                workers.add(worker);
            }
        }
        coordinator.awaitWorkers(Duration.ofSeconds(120));
        progress.accept("V4 over namespaces: " + nodes + " workers in " + network.host(0) + " ... at "
                + network.address(0) + " ..., coordinator on " + join);
    }

    Coordinator coordinator() {
        return coordinator;
    }

    /** Caps every host's link in both directions ({@link NetworkNamespaces#capLink}). */
    void capLinks(long rateMbit, int queueBytes) {
        try {
            for (int host = 0; host < network.hostCount(); host++) {
                network.capLink(host, rateMbit, queueBytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("tc could not cap the links: " + e.getMessage(), e);
        }
    }

    /** Removes every cap. */
    void uncapLinks() {
        for (int host = 0; host < network.hostCount(); host++) {
            network.uncapLink(host);
        }
    }

    private static void deleteQuietly(Path directory) {
        try {
            Files.deleteIfExists(directory);
        } catch (IOException ignored) {
            // an empty temporary directory: harmless
        }
    }

    /** The last lines of each worker's log (for a failure's message). */
    String workerLogTails() {
        StringBuilder text = new StringBuilder();
        for (int host = 0; host < workers.size(); host++) {
            Path log = directory.resolve("worker-" + host + ".log");
            try {
                List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
                List<String> tail = lines.subList(Math.max(0, lines.size() - 5), lines.size());
                if (!tail.isEmpty()) {
                    text.append("worker ")
                            .append(host)
                            .append(": ")
                            .append(String.join(" | ", tail))
                            .append('\n');
                }
            } catch (IOException e) {
                text.append("worker ").append(host).append(": log unreadable\n");
            }
        }
        return text.toString();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (coordinator != null) {
                coordinator.close(); // shuts the workers down
            }
            for (Process worker : workers) {
                try {
                    if (!worker.waitFor(10, TimeUnit.SECONDS)) {
                        worker.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        } finally {
            try {
                for (Process worker : workers) {
                    worker.destroyForcibly(); // a namespace lives on while a process is inside
                }
            } finally {
                try {
                    network.close(); // caps go with the links
                } finally {
                    InProcessHyperCluster.remove(directory, progress);
                    try {
                        Runtime.getRuntime().removeShutdownHook(shutdownHook);
                    } catch (IllegalStateException e) {
                        // already shutting down: this is the hook
                    }
                }
            }
        }
    }
}
