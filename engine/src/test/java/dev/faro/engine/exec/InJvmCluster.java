package dev.faro.engine.exec;

import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.vector.Table;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.transport.DesignTransport;
import dev.faro.shuffle.transport.ExchangeTransport;
import dev.faro.shuffle.transport.ExchangeTransports;
import dev.faro.shuffle.transport.TransportNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

/** Runs one plan on N nodes in this JVM, each with its own shm fabric, its own catalog and a shared peer exchange. */
final class InJvmCluster {

    /** What one node's execute returned or threw. */
    record Outcome(QueryResult result, Throwable failure) {}

    private InJvmCluster() {}

    static List<Outcome> run(
            Path directory,
            PlanNode plan,
            List<List<Table>> tablesPerNode,
            int threads,
            EndpointDesign design,
            UnaryOperator<EndpointConfig> tweaks,
            String queryId)
            throws Exception {
        EndpointConfig probe = tweaks.apply(EndpointConfig.defaults(design, threads));
        return run(
                directory,
                plan,
                tablesPerNode,
                threads,
                (fabric, peers) -> new DesignTransport(
                        fabric, peers, design, t -> tweaks.apply(EndpointConfig.defaults(design, t))),
                probe.progress(),
                probe.stallTimeout(),
                queryId,
                0);
    }

    /**
     * As above over the registered transport {@code transport} (any {@link ExchangeTransports} name), its waits
     * failing after {@code stallTimeout} without progress.
     */
    static List<Outcome> run(
            Path directory,
            PlanNode plan,
            List<List<Table>> tablesPerNode,
            int threads,
            String transport,
            Duration stallTimeout,
            String queryId)
            throws Exception {
        return run(directory, plan, tablesPerNode, threads, transport, stallTimeout, queryId, 0);
    }

    /**
     * As above with at most {@code driverThreads} threads running each node's drivers at once (0: one per driver;
     * see {@link ExecutionContext#withDriverThreads}).
     */
    static List<Outcome> run(
            Path directory,
            PlanNode plan,
            List<List<Table>> tablesPerNode,
            int threads,
            String transport,
            Duration stallTimeout,
            String queryId,
            int driverThreads)
            throws Exception {
        ProgressSignal progress = new ProgressSignal();
        // one node's lifetime objects per node, as each worker has its own (a multiplexer serves one node)
        TransportNode.Shared[] shared = new TransportNode.Shared[tablesPerNode.size()];
        for (int node = 0; node < shared.length; node++) {
            shared[node] = new TransportNode.Shared();
        }
        try {
            return run(
                    directory,
                    plan,
                    tablesPerNode,
                    threads,
                    (fabric, peers) -> ExchangeTransports.create(
                            transport,
                            new TransportNode(
                                    fabric,
                                    peers,
                                    SharedSecret.of("in-jvm cluster", queryId),
                                    stallTimeout,
                                    progress,
                                    shared[peers.nodeIndex()])),
                    progress,
                    stallTimeout,
                    queryId,
                    driverThreads);
        } finally {
            for (TransportNode.Shared node : shared) {
                node.close();
            }
        }
    }

    private static List<Outcome> run(
            Path directory,
            PlanNode plan,
            List<List<Table>> tablesPerNode,
            int threads,
            BiFunction<Fabric, PeerExchange, ExchangeTransport> transports,
            ProgressSignal progress,
            Duration stallTimeout,
            String queryId,
            int driverThreads)
            throws Exception {
        int nodes = tablesPerNode.size();
        LocalPeerExchange.Group peers = LocalPeerExchange.group(nodes, Duration.ofSeconds(30));
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            List<Future<Outcome>> runs = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                int self = node;
                runs.add(pool.submit(() -> {
                    FabricConfig config = FabricConfig.of("shm", queryId + "-node-" + self)
                            .withOption("shm.directory", directory.toString());
                    try (Fabric fabric = Fabrics.open(config)) {
                        ExchangeTransport transport = transports.apply(fabric, peers.member(self));
                        ExecutionContext context = ExecutionContext.distributed(
                                        Catalog.of(tablesPerNode.get(self)), threads, transport, queryId)
                                .withProgress(progress, stallTimeout)
                                .withDriverThreads(driverThreads);
                        return new Outcome(QueryExecutor.execute(plan, context), null);
                    } catch (Throwable e) {
                        return new Outcome(null, e);
                    }
                }));
            }
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> run : runs) {
                try {
                    outcomes.add(run.get(120, TimeUnit.SECONDS));
                } catch (TimeoutException e) {
                    throw new AssertionError("a node hung for 120 s", e);
                } catch (ExecutionException e) {
                    throw new AssertionError(e.getCause());
                }
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
        }
    }
}
