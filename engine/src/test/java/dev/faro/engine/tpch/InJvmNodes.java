package dev.faro.engine.tpch;

import dev.faro.engine.exec.Catalog;
import dev.faro.engine.exec.ExecutionContext;
import dev.faro.engine.exec.QueryExecutor;
import dev.faro.engine.exec.QueryResult;
import dev.faro.engine.plan.PlanNode;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.setup.EndpointSets;
import dev.faro.shuffle.transport.BuiltInTransports;
import dev.faro.shuffle.transport.ExchangeTransport;
import dev.faro.shuffle.transport.ExchangeTransports;
import dev.faro.shuffle.transport.TransportNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Several engine nodes in one JVM, each with its own {@code shm} fabric and catalog, exchanging addresses through a
 * {@link LocalPeerExchange}: runs a plan on every node at once and returns node 0's result (plans end in a GATHER).
 */
final class InJvmNodes implements AutoCloseable {

    private static final AtomicInteger QUERIES = new AtomicInteger();
    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    /** The secret the nodes share (the TCP baseline authenticates its connections with it). */
    private static final SharedSecret SECRET = SharedSecret.of("in-jvm nodes", "the test");

    private final List<Catalog> catalogs;
    private final List<Fabric> fabrics = new ArrayList<>();
    /** Each node's objects that transports keep across queries. */
    private final List<TransportNode.Shared> shared = new ArrayList<>();
    /** Each node's progress signal, for its lifetime as a worker's (so that its endpoint sets serve every query). */
    private final List<ProgressSignal> progress = new ArrayList<>();

    private final ExecutorService executor;
    private final int threads;

    InJvmNodes(List<Catalog> catalogs, Path shmDirectory, int threads) {
        this.catalogs = List.copyOf(catalogs);
        this.threads = threads;
        this.executor = Executors.newCachedThreadPool(
                Thread.ofPlatform().daemon().name("node-", 0).factory());
        if (catalogs.size() > 1) {
            int cluster = CLUSTERS.incrementAndGet();
            for (int node = 0; node < catalogs.size(); node++) {
                fabrics.add(Fabrics.open(FabricConfig.of("shm", "tpch-" + cluster + "-node-" + node)
                        .withOption("shm.directory", shmDirectory.toString())));
                shared.add(new TransportNode.Shared());
                progress.add(new ProgressSignal());
            }
        }
    }

    /** The name of the TCP socket baseline in {@link #run(PlanNode, String)}. */
    static final String TCP = "tcp";

    QueryResult run(PlanNode plan, EndpointDesign design) throws Exception {
        return run(plan, design.name());
    }

    /** Runs {@code plan} over {@code transport}: any {@link ExchangeTransports} name (a design's, {@link #TCP}, ...). */
    QueryResult run(PlanNode plan, String transport) throws Exception {
        int nodes = catalogs.size();
        if (nodes == 1) {
            return QueryExecutor.execute(plan, ExecutionContext.local(catalogs.getFirst(), threads));
        }
        String queryId = "q" + QUERIES.incrementAndGet();
        LocalPeerExchange.Group group = LocalPeerExchange.group(nodes, Duration.ofSeconds(30));
        List<Future<QueryResult>> results = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            ExchangeTransport carrier = ExchangeTransports.create(
                    transport,
                    new TransportNode(
                            fabrics.get(node),
                            group.member(node),
                            SECRET,
                            EndpointConfig.DEFAULT_STALL_TIMEOUT,
                            progress.get(node),
                            shared.get(node)));
            ExecutionContext context = ExecutionContext.distributed(catalogs.get(node), threads, carrier, queryId);
            results.add(executor.submit(() -> QueryExecutor.execute(plan, context)));
        }
        List<QueryResult> done = new ArrayList<>();
        for (Future<QueryResult> result : results) {
            done.add(result.get(120, TimeUnit.SECONDS));
        }
        for (int node = 1; node < nodes; node++) {
            if (done.get(node).rowCount() != 0) {
                throw new AssertionError("node " + node + " returned rows; only node 0 should after a GATHER");
            }
        }
        return done.getFirst();
    }

    /** Node {@code node}'s endpoint sets, which the designs keep across exchanges and queries. */
    EndpointSets endpointSets(int node) {
        return new TransportNode(
                        fabrics.get(node),
                        LocalPeerExchange.group(1, Duration.ofSeconds(1)).member(0),
                        SECRET,
                        EndpointConfig.DEFAULT_STALL_TIMEOUT,
                        progress.get(node),
                        shared.get(node))
                .shared(BuiltInTransports.ENDPOINT_SETS, EndpointSets.class, EndpointSets::new);
    }

    @Override
    public void close() {
        executor.shutdownNow();
        for (TransportNode.Shared objects : shared) {
            objects.close();
        }
        for (Fabric fabric : fabrics) {
            fabric.close();
        }
    }
}
