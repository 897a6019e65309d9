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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Test task {@code shuffle}: a real repartition over the worker's fabric, with endpoints opened through the relayed
 * {@code PeerExchange}, with {@code payload.threads} sending and receiving threads (default 1; more than one
 * shares the endpoints of the shared-endpoint designs). Every node sends {@code payload.rows} longs ({@code node * 1e9 + i}) hashed to their
 * destination; answers how many this node received, their sum, the sum of their {@link #checksum(long)}s (a
 * duplicate and a loss do not cancel out there), and how many it sent.
 */
public final class ShuffleHandler implements TaskHandler {

    private static final int VECTOR = 1024;
    /** Senders and receivers block in the fabric: platform threads, not the common pool. */
    private static final Executor PLATFORM_THREADS =
            runnable -> Thread.ofPlatform().daemon().start(runnable);

    @Override
    public String type() {
        return "shuffle";
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws Exception {
        int rows = payload.path("rows").asInt();
        EndpointDesign design = EndpointDesign.valueOf(payload.path("design").asText("MEMQ_SR"));
        String name = payload.path("name").asText("test-shuffle");
        int threads = payload.path("threads").asInt(1);
        int nodes = context.nodes();
        TransmissionGroups groups = TransmissionGroups.repartition(nodes);
        try (NodeEndpoints endpoints = EndpointFactory.open(
                        context.fabric(), context.exchange(), name, EndpointConfig.defaults(design, threads), groups);
                Arena arena = Arena.ofShared()) {
            MemorySegment table = arena.allocate(Math.max(8, (long) rows * 8), 8);
            for (int i = 0; i < rows; i++) {
                table.setAtIndex(ValueLayout.JAVA_LONG, i, context.nodeIndex() * 1_000_000_000L + i);
            }
            List<CompletableFuture<long[]>> received = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int receiver = thread;
                received.add(CompletableFuture.supplyAsync(() -> receive(endpoints, receiver), PLATFORM_THREADS));
            }
            ShuffleSink sink =
                    new ShuffleSink(endpoints, groups, Partitioner.hashLongKey(groups.groupCount()), 8, threads);
            List<CompletableFuture<Void>> sent = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                ShuffleSink.Writer writer = sink.writer(thread);
                int from = (int) ((long) rows * thread / threads);
                int to = (int) ((long) rows * (thread + 1) / threads);
                sent.add(CompletableFuture.runAsync(() -> send(writer, table, from, to), PLATFORM_THREADS));
            }
            long[] totals = new long[3];
            for (CompletableFuture<Void> done : sent) {
                done.get();
            }
            for (CompletableFuture<long[]> countSumChecksum : received) {
                long[] part = countSumChecksum.get();
                for (int i = 0; i < totals.length; i++) {
                    totals[i] += part[i];
                }
            }
            ObjectNode result = Json.object();
            result.put("received", totals[0]);
            result.put("sum", totals[1]);
            result.put("checksum", totals[2]);
            result.put("sent", rows);
            return TaskReply.of(result);
        }
    }

    private static void send(ShuffleSink.Writer writer, MemorySegment table, int from, int to) {
        for (int first = from; first < to; first += VECTOR) {
            writer.add(table, (long) first * 8, Math.min(VECTOR, to - first));
        }
        writer.finish();
    }

    private static long[] receive(NodeEndpoints endpoints, int thread) {
        ReceiveSource source = new ReceiveSource(endpoints.receiver(thread), 8);
        long count = 0;
        long sum = 0;
        long checksum = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment vector = arena.allocate(VECTOR * 8L, 8);
            int tuples;
            while ((tuples = source.next(vector)) > 0) {
                for (int i = 0; i < tuples; i++) {
                    long value = vector.getAtIndex(ValueLayout.JAVA_LONG, i);
                    sum += value;
                    checksum += checksum(value);
                }
                count += tuples;
            }
        }
        return new long[] {count, sum, checksum};
    }

    /** A value's share of the {@code checksum} answer: a multiplicative hash, so the checksum depends on every value. */
    public static long checksum(long value) {
        long h = (value + 0x9E3779B97F4A7C15L) * 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 31);
    }
}
