package dev.faro.engine.exec;

import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.vector.Table;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.transport.DesignTransport;
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
                        EndpointConfig probe = tweaks.apply(EndpointConfig.defaults(design, threads));
                        DesignTransport transport = new DesignTransport(
                                fabric,
                                peers.member(self),
                                design,
                                t -> tweaks.apply(EndpointConfig.defaults(design, t)));
                        ExecutionContext context = ExecutionContext.distributed(
                                        Catalog.of(tablesPerNode.get(self)), threads, transport, queryId)
                                .withProgress(probe.progress(), probe.stallTimeout());
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
