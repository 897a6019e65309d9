package dev.faro.cluster.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.operator.Partitioner;
import dev.faro.shuffle.operator.ReceiveSource;
import dev.faro.shuffle.operator.ShuffleSink;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;

/**
 * Test task {@code shuffle}: a real repartition over the worker's fabric, with endpoints opened through the relayed
 * {@code PeerExchange}. Every node sends {@code payload.rows} longs ({@code node * 1e9 + i}) hashed to their
 * destination; answers how many this node received, their sum, and how many it sent.
 */
public final class ShuffleHandler implements TaskHandler {

    private static final int VECTOR = 1024;

    @Override
    public String type() {
        return "shuffle";
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws Exception {
        int rows = payload.path("rows").asInt();
        EndpointDesign design = EndpointDesign.valueOf(payload.path("design").asText("MEMQ_SR"));
        String name = payload.path("name").asText("test-shuffle");
        int nodes = context.nodes();
        TransmissionGroups groups = TransmissionGroups.repartition(nodes);
        try (NodeEndpoints endpoints = EndpointFactory.open(context.fabric(), context.exchange(), name,
                        EndpointConfig.defaults(design, 1), groups);
                Arena arena = Arena.ofShared()) {
            MemorySegment table = arena.allocate(Math.max(8, (long) rows * 8), 8);
            for (int i = 0; i < rows; i++) {
                table.setAtIndex(ValueLayout.JAVA_LONG, i, context.nodeIndex() * 1_000_000_000L + i);
            }
            CompletableFuture<long[]> received = CompletableFuture.supplyAsync(() -> receive(endpoints));
            ShuffleSink sink = new ShuffleSink(endpoints, groups, Partitioner.hashLongKey(groups.groupCount()), 8, 1);
            ShuffleSink.Writer writer = sink.writer(0);
            for (int first = 0; first < rows; first += VECTOR) {
                writer.add(table, (long) first * 8, Math.min(VECTOR, rows - first));
            }
            writer.finish();
            long[] countAndSum = received.get();
            ObjectNode result = Json.object();
            result.put("received", countAndSum[0]);
            result.put("sum", countAndSum[1]);
            result.put("sent", rows);
            return TaskReply.of(result);
        }
    }

    private static long[] receive(NodeEndpoints endpoints) {
        ReceiveSource source = new ReceiveSource(endpoints.receiver(0), 8);
        long count = 0;
        long sum = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment vector = arena.allocate(VECTOR * 8L, 8);
            int tuples;
            while ((tuples = source.next(vector)) > 0) {
                for (int i = 0; i < tuples; i++) {
                    sum += vector.getAtIndex(ValueLayout.JAVA_LONG, i);
                }
                count += tuples;
            }
        }
        return new long[] {count, sum};
    }
}
