package dev.faro.cluster.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Test task {@code gather}: {@code payload.keys} all-gathers at once, each from its own thread and in a different
 * order on each node; answers, per key, the contributions joined with commas ("k0:n0,k0:n1,...").
 */
public final class GatherHandler implements TaskHandler {

    @Override
    public String type() {
        return "gather";
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws Exception {
        int keys = payload.path("keys").asInt();
        List<CompletableFuture<String>> answers = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(keys)) {
            for (int i = 0; i < keys; i++) {
                int key = (i + context.nodeIndex()) % keys; // a different order per node
                answers.add(CompletableFuture.supplyAsync(() -> gather(context, key), threads));
            }
            ArrayNode result = Json.MAPPER.createArrayNode();
            List<String> byKey = new ArrayList<>(java.util.Collections.nCopies(keys, ""));
            for (int i = 0; i < keys; i++) {
                byKey.set((i + context.nodeIndex()) % keys, answers.get(i).get());
            }
            byKey.forEach(result::add);
            return TaskReply.of(result);
        }
    }

    private static String gather(WorkerContext context, int key) {
        byte[] mine = ("k" + key + ":n" + context.nodeIndex()).getBytes(StandardCharsets.UTF_8);
        byte[][] all = context.exchange().allGather("key-" + key, mine);
        List<String> values = new ArrayList<>();
        for (byte[] value : all) {
            values.add(new String(value, StandardCharsets.UTF_8));
        }
        return String.join(",", values);
    }
}
