package dev.faro.bench.middleware;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.faro.cluster.ClusterException;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.cluster.coordinator.NodeAnswer;
import dev.faro.cluster.tpch.QueryHandler;
import dev.faro.cluster.tpch.QueryTask;
import dev.faro.engine.tpcc.TpccQueries;
import dev.faro.fabric.FaroException;
import dev.faro.middleware.exchange.Dais16Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * DAIS16 Fig. 5 on a cluster of worker JVMs: the paper's three analytical queries (Listing 1.1, {@link TpccQueries})
 * over a generated TPC-C database of {@link MiddlewareBenchmarkConfig#warehouses()} warehouses, run sequentially (one
 * JVM, one engine thread) and then on {@code processes} JVMs with 1…n engine threads each (the paper's workers), the
 * exchanges over the middleware on the fabric ({@value Dais16Transport#NAME}) and over its NIO sockets baseline
 * ({@value Dais16Transport#NIO_NAME}), both through the engine's exchange transport SPI. Every answer is checked
 * against the sequential one. At each point a warm-up run of each transport first, then {@code runs} timed runs of
 * each, the two taking turns; the median is kept.
 *
 * <p>Coordination code; one thread.
 */
final class TpccFigure {

    private static final long SEED = 2016;
    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    private static final AtomicInteger QUERY_IDS = new AtomicInteger();
    /** The baseline and the middleware, measured side by side at every point. */
    private static final List<String> TRANSPORTS = List.of(Dais16Transport.NIO_NAME, Dais16Transport.NAME);

    private final MiddlewareBenchmarkConfig config;
    private final Consumer<String> progress;

    TpccFigure(MiddlewareBenchmarkConfig config, Consumer<String> progress) {
        this.config = config;
        this.progress = progress;
    }

    List<TpccFigureResult> run(Coordinator coordinator) {
        List<TpccFigureResult> results = new ArrayList<>();
        load(coordinator, 1);
        Map<Integer, JsonNode> answers = new HashMap<>();
        for (int query : TpccQueries.all()) {
            results.addAll(measure(coordinator, query, List.of(TpccFigureResult.SEQUENTIAL), 1, 1, answers));
        }
        for (int processes : config.processes()) {
            load(coordinator, processes);
            for (int workers : config.workers()) {
                for (int query : TpccQueries.all()) {
                    results.addAll(measure(coordinator, query, TRANSPORTS, processes, workers, answers));
                }
            }
        }
        return results;
    }

    private void load(Coordinator coordinator, int processes) {
        progress.accept("bench middleware fig5: generating TPC-C, " + config.warehouses() + " warehouses, on "
                + processes + " process(es)");
        JsonNode payload = JsonNodeFactory.instance
                .objectNode()
                .put("warehouses", config.warehouses())
                .put("seed", SEED);
        check(round(coordinator, processes, TpccLoadHandler.TYPE, payload), "generating TPC-C");
    }

    /**
     * One point per transport: a warm-up run of each, then {@code runs} timed rounds in which the transports take turns
     * going first (NIO first in even rounds), so neither gains from the other's warming of the JVMs (the larger
     * process counts start on JVMs that ran no query yet) nor loses to a change of the host's load.
     */
    private List<TpccFigureResult> measure(
            Coordinator coordinator,
            int query,
            List<String> transports,
            int processes,
            int workers,
            Map<Integer, JsonNode> answers) {
        double[][] seconds = new double[transports.size()][config.runs()];
        JsonNode[] answer = new JsonNode[transports.size()];
        for (int run = -1; run < config.runs(); run++) {
            for (int turn = 0; turn < transports.size(); turn++) {
                int t = run % 2 == 1 ? transports.size() - 1 - turn : turn;
                String label = "Q" + query + ", " + transports.get(t) + ", " + processes + "x" + workers;
                progress.accept("bench middleware fig5: " + label + (run < 0 ? ", warm-up" : ", run " + (run + 1)));
                QueryTask task = new QueryTask(
                        "tpcc-q" + query + "-" + QUERY_IDS.incrementAndGet(),
                        TpccQueries.plan(query),
                        processes == 1 ? Dais16Transport.NAME : transports.get(t),
                        workers);
                List<NodeAnswer> replies =
                        check(round(coordinator, processes, QueryHandler.TYPE, task.toJson()), label);
                long slowest = 0;
                for (NodeAnswer reply : replies) {
                    slowest = Math.max(
                            slowest, reply.reply().result().path("nanos").asLong());
                }
                if (run >= 0) {
                    seconds[t][run] = slowest / 1e9;
                }
                answer[t] = replies.getFirst().reply().result().path("rows");
                JsonNode expected = answers.putIfAbsent(query, answer[t]);
                if (expected != null && !expected.equals(answer[t])) {
                    throw new IllegalStateException(label + ": the answer differs from the sequential one");
                }
            }
        }
        List<TpccFigureResult> points = new ArrayList<>();
        for (int t = 0; t < transports.size(); t++) {
            Arrays.sort(seconds[t]);
            points.add(new TpccFigureResult(
                    query, transports.get(t), processes, workers, seconds[t][seconds[t].length / 2], answer[t].size()));
        }
        return points;
    }

    private static List<NodeAnswer> round(Coordinator coordinator, int nodes, String type, JsonNode payload) {
        try {
            return coordinator.runOnEach(nodes, type, node -> payload, TIMEOUT);
        } catch (ClusterException e) {
            throw new FaroException(e.category(), "fig5 " + type + ": " + e.getMessage());
        }
    }

    private static List<NodeAnswer> check(List<NodeAnswer> answers, String what) {
        for (NodeAnswer answer : answers) {
            if (!answer.succeeded()) {
                throw new FaroException(
                        answer.failure().category(),
                        "process " + answer.node() + " failed " + what + ": "
                                + answer.failure().getMessage());
            }
        }
        return answers;
    }
}
