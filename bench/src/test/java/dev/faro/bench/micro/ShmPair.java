package dev.faro.bench.micro;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Two shuffle nodes in this JVM over the {@code shm} fabric, one endpoint of {@code design} per role and node, for the
 * micro-benchmarks: opened and closed on a thread per node (the open and close protocols need both), driven in between
 * by one thread. {@link #close} ends every stream (DEPLETED from both senders, both receivers drained) first.
 */
final class ShmPair implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int[] BOTH = {0, 1};

    private final Path directory;
    private final Fabric[] fabrics = new Fabric[2];
    private final NodeEndpoints[] endpoints = new NodeEndpoints[2];

    ShmPair(EndpointDesign design) throws Exception {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-micro");
        EndpointConfig config = EndpointConfig.defaults(design, 1).withStallTimeout(TIMEOUT);
        LocalPeerExchange.Group exchange = LocalPeerExchange.group(2, TIMEOUT);
        onBothNodes(node -> {
            fabrics[node] = Fabrics.open(
                    FabricConfig.of("shm", "micro-" + node).withOption("shm.directory", directory.toString()));
            endpoints[node] = EndpointFactory.open(
                    fabrics[node], exchange.member(node), "micro", config, TransmissionGroups.repartition(2));
            return null;
        });
    }

    SendEndpoint sender(int node) {
        return endpoints[node].sender(0);
    }

    ReceiveEndpoint receiver(int node) {
        return endpoints[node].receiver(0);
    }

    @Override
    public void close() throws Exception {
        try {
            for (int node = 0; node < 2; node++) {
                ShuffleBuffer last = sender(node).acquire();
                last.payloadLength(0);
                sender(node).putData(last, BOTH, StreamState.DEPLETED);
            }
            onBothNodes(node -> {
                ShuffleBuffer buffer;
                while ((buffer = receiver(node).getData()) != null) {
                    receiver(node).release(buffer);
                }
                endpoints[node].close();
                fabrics[node].close();
                return null;
            });
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            } catch (IOException e) {
                // best effort: a leftover directory under /dev/shm is only untidy
            }
        }
    }

    private interface NodeTask {
        Void run(int node) throws Exception;
    }

    private static void onBothNodes(NodeTask task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Void>> runs = new ArrayList<>();
            for (int node = 0; node < 2; node++) {
                int self = node;
                runs.add(pool.submit((Callable<Void>) () -> task.run(self)));
            }
            for (Future<Void> run : runs) {
                run.get(TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
