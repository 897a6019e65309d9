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
 * over a generated TPC-C database of {@link MiddlewareBenchmarkConfig#warehouses()} warehouses, run sequentially (one JVM, one engine thread)
 * and then on {@code processes} JVMs with 1…n engine threads each (the paper's workers), the exchanges over the
 * middleware on the fabric ({@value Dais16Transport#NAME}) and over its NIO sockets baseline
 * ({@value Dais16Transport#NIO_NAME}), both through the engine's exchange transport SPI. Every answer is checked
 * against the sequential one. A warm-up run first, then {@code runs} timed runs; the median is kept.
 *
 * <p>Coordination code; one thread.
 */
final class TpccFigure {

    private static final long SEED = 2016;
    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    private static final AtomicInteger QUERY_IDS = new AtomicInteger();

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
            results.add(measure(coordinator, query, TpccFigureResult.SEQUENTIAL, 1, 1, answers));
        }
        for (int processes : config.processes()) {
            load(coordinator, processes);
            for (String transport : List.of(Dais16Transport.NIO_NAME, Dais16Transport.NAME)) {
                for (int workers : config.workers()) {
                    for (int query : TpccQueries.all()) {
                        results.add(measure(coordinator, query, transport, processes, workers, answers));
                    }
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

    private TpccFigureResult measure(
            Coordinator coordinator,
            int query,
            String transport,
            int processes,
            int workers,
            Map<Integer, JsonNode> answers) {
        String label = "Q" + query + ", " + transport + ", " + processes + "x" + workers;
        double[] seconds = new double[config.runs()];
        JsonNode answer = null;
        for (int run = -1; run < config.runs(); run++) {
            progress.accept("bench middleware fig5: " + label + (run < 0 ? ", warm-up" : ", run " + (run + 1)));
            QueryTask task = new QueryTask(
                    "tpcc-q" + query + "-" + QUERY_IDS.incrementAndGet(),
                    TpccQueries.plan(query),
                    processes == 1 ? Dais16Transport.NAME : transport,
                    workers);
            List<NodeAnswer> replies = check(round(coordinator, processes, QueryHandler.TYPE, task.toJson()), label);
            long slowest = 0;
            for (NodeAnswer reply : replies) {
                slowest = Math.max(slowest, reply.reply().result().path("nanos").asLong());
            }
            if (run >= 0) {
                seconds[run] = slowest / 1e9;
            }
            answer = replies.getFirst().reply().result().path("rows");
        }
        JsonNode expected = answers.putIfAbsent(query, answer);
        if (expected != null && !expected.equals(answer)) {
            throw new IllegalStateException(label + ": the answer differs from the sequential one");
        }
        Arrays.sort(seconds);
        return new TpccFigureResult(query, transport, processes, workers, seconds[seconds.length / 2], answer.size());
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
