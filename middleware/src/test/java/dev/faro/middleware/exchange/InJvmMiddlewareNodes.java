package dev.faro.middleware.exchange;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Nodes simulated in one JVM: one shm fabric and one node-lifetime middleware each; a transport per query. */
final class InJvmMiddlewareNodes implements AutoCloseable {

    final Path directory;
    final List<Fabric> fabrics = new ArrayList<>();
    final List<NodeMiddleware> middlewares = new ArrayList<>();

    InJvmMiddlewareNodes(int nodes) throws IOException {
        this(nodes, NodeMiddleware.Backend.FABRIC);
    }

    InJvmMiddlewareNodes(int nodes, NodeMiddleware.Backend backend) throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-dais16-test");
        for (int node = 0; node < nodes; node++) {
            Fabric fabric =
                    Fabrics.open(FabricConfig.of("shm", "n" + node).withOption("shm.directory", directory.toString()));
            fabrics.add(fabric);
            middlewares.add(new NodeMiddleware(fabric, backend));
        }
    }

    /** One query's transports, one per node. */
    List<Dais16Transport> query() {
        return query(fabrics.size());
    }

    /** One query's transports on the first {@code nodes} nodes only, as a cluster runs a query on fewer nodes. */
    List<Dais16Transport> query(int nodes) {
        LocalPeerExchange.Group group = LocalPeerExchange.group(nodes, Duration.ofSeconds(30));
        List<Dais16Transport> transports = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            transports.add(new Dais16Transport(
                    middlewares.get(node), group.member(node), Duration.ofSeconds(30), ProgressSignal.NONE));
        }
        return transports;
    }

    /** Opens exchange {@code name} at every node of a query at once (open is collective), each on a thread of pool. */
    static List<ExchangeChannel> openEverywhere(
            ExecutorService pool, List<Dais16Transport> transports, String name, TransmissionGroups groups, int threads)
            throws Exception {
        List<Future<ExchangeChannel>> opening = new ArrayList<>();
        for (Dais16Transport transport : transports) {
            opening.add(pool.submit(() -> transport.open(name, groups, threads)));
        }
        List<ExchangeChannel> channels = new ArrayList<>();
        for (Future<ExchangeChannel> channel : opening) {
            channels.add(channel.get(60, TimeUnit.SECONDS));
        }
        return channels;
    }

    @Override
    public void close() throws IOException {
        for (NodeMiddleware middleware : middlewares) {
            middleware.close();
        }
        for (Fabric fabric : fabrics) {
            fabric.close();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }
}
