package dev.faro.txn.node;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A lock manager of several nodes in this JVM, each on its own fabric node ({@code shm} in a fresh directory, or
 * {@code net} on loopback), connected through an in-memory all-gather: the tests' cluster.
 */
final class LocalLockManager implements AutoCloseable {

    private final List<Fabric> fabrics = new ArrayList<>();
    private final List<LockManagerNode> nodes = new ArrayList<>();
    private final Path directory;

    LocalLockManager(String provider, Topology topology, LockManagerOptions options) {
        try {
            directory = provider.equals("shm") ? Files.createTempDirectory(Path.of("/dev/shm"), "faro-txn-test") : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            byte[][] addresses = new byte[topology.nodes()][];
            for (int node = 0; node < topology.nodes(); node++) {
                FabricConfig config = FabricConfig.of(provider, "txn-" + node);
                config = switch (provider) {
                    case "shm" -> config.withOption("shm.directory", directory.toString());
                    case "net" -> config.withOption("net.secret", "faro-txn-test");
                    case "ucx" -> config.withOption("ucx.tls", "sm,self");
                    default -> throw new IllegalArgumentException("unknown provider " + provider);
                };
                Fabric fabric = Fabrics.open(config);
                fabrics.add(fabric);
                LockManagerNode lockNode = LockManagerNode.open(fabric, topology, node, options);
                nodes.add(lockNode);
                addresses[node] = lockNode.addresses();
            }
            for (LockManagerNode node : nodes) {
                node.connect(addresses);
            }
            for (LockManagerNode node : nodes) {
                node.start();
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    List<LockManagerNode> nodes() {
        return nodes;
    }

    /** Every agent, by global index. */
    List<TransactionAgent> agents() {
        return nodes.stream().flatMap(node -> node.agents().stream()).toList();
    }

    /** Every server, by global index. */
    List<LockServer> servers() {
        return nodes.stream().flatMap(node -> node.servers().stream()).toList();
    }

    /** Stops every server's thread, so their tables can be inspected. */
    void stopServers() {
        nodes.forEach(LockManagerNode::stopServers);
    }

    @Override
    public void close() {
        nodes.forEach(LockManagerNode::close);
        fabrics.forEach(Fabric::close);
        if (directory != null) {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                // best effort
            }
        }
    }
}
