package dev.faro.hyper;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.ProgressSignal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;
import java.util.stream.Stream;

/**
 * Nodes in this JVM over the {@code shm} fabric, each with its multiplexer (the node-lifetime object), and a fresh
 * {@link LocalPeerExchange} group per "query": what the tests of this package run on.
 */
final class HyperCluster implements AutoCloseable {

    final List<Fabric> fabrics = new ArrayList<>();
    final List<Multiplexer> multiplexers = new ArrayList<>();
    private final Path directory;
    private final ExecutorService pool = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable);
        thread.setDaemon(true);
        return thread;
    });

    HyperCluster(int nodes, HyperConfig config) {
        try {
            directory = Files.createTempDirectory(Path.of("/dev/shm"), "hyper-test-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int node = 0; node < nodes; node++) {
            Fabric fabric = Fabrics.open(FabricConfig.of("shm", "hyper-" + node)
                    .withPeerTimeout(Duration.ofSeconds(2))
                    .withOption("shm.directory", directory.toString()));
            fabrics.add(fabric);
            multiplexers.add(new Multiplexer(fabric, node, nodes, config));
        }
    }

    /**
     * Replaces node {@code node} as the cluster runtime replaces a killed worker: a new fabric and a new multiplexer
     * (a new incarnation) under the same node index; the old ones are closed.
     */
    void replace(int node, HyperConfig config) {
        multiplexers.get(node).close();
        fabrics.get(node).close();
        Fabric fabric = Fabrics.open(FabricConfig.of("shm", "hyper-" + node + "-replaced")
                .withPeerTimeout(Duration.ofSeconds(2))
                .withOption("shm.directory", directory.toString()));
        fabrics.set(node, fabric);
        multiplexers.set(node, new Multiplexer(fabric, node, nodes(), config));
    }

    /** Small messages and pools, so that workers wait for messages and the network thread for credit. */
    static HyperConfig small() {
        return HyperConfig.defaults()
                .withMessageBytes(4096)
                .withSendMessages(24)
                .withReceivesPerPeer(4)
                .withWorkerGroups(2);
    }

    int nodes() {
        return multiplexers.size();
    }

    ExecutorService pool() {
        return pool;
    }

    /** One query's transports, one per node, over a fresh bootstrap group. */
    List<HyperTransport> query() {
        return query((node, peers) -> peers);
    }

    /** As {@link #query()}, each node's bootstrap member passed through {@code wrap} (node index, member). */
    List<HyperTransport> query(BiFunction<Integer, PeerExchange, PeerExchange> wrap) {
        LocalPeerExchange.Group group = LocalPeerExchange.group(nodes(), Duration.ofSeconds(30));
        List<HyperTransport> transports = new ArrayList<>();
        for (int node = 0; node < nodes(); node++) {
            transports.add(new HyperTransport(
                    multiplexers.get(node),
                    wrap.apply(node, group.member(node)),
                    Duration.ofSeconds(20),
                    ProgressSignal.NONE));
        }
        return transports;
    }

    /** Waits until every multiplexer holds no message (its network thread released the last SENDs). */
    void awaitIdle() throws InterruptedException {
        awaitIdle(nodes());
    }

    /** As {@link #awaitIdle()}, for the first {@code count} nodes only (the others died). */
    void awaitIdle(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            boolean idle = true;
            for (Multiplexer multiplexer : multiplexers.subList(0, count)) {
                idle &= multiplexer.retained() == 0 && multiplexer.sendMessagesInUse() == 0;
            }
            if (idle) {
                return;
            }
            Thread.sleep(10);
        }
    }

    @Override
    public void close() throws IOException {
        pool.shutdownNow();
        for (Multiplexer multiplexer : multiplexers) {
            multiplexer.close();
        }
        for (Fabric fabric : fabrics) {
            fabric.close();
        }
        try (Stream<Path> left = Files.walk(directory)) {
            left.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
