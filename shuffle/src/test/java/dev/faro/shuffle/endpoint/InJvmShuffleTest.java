package dev.faro.shuffle.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.shuffle.operator.Partitioner;
import dev.faro.shuffle.operator.ShuffleSink;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.LocalPeerExchange;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exactly-once delivery of the implemented designs with all nodes in one JVM over {@code shm}: every design ×
 * {repartition, multicast, broadcast} × {2, 3 nodes} × {1, 2 threads}. Each receiving node checks the count and an
 * order-independent checksum of what it must get, and, with one receiving thread and disjoint groups, that each
 * sending thread's tuples arrive in order (RC keeps posting order; with overlapping multicast groups a destination is
 * fed from several output buffers per thread, so only per-buffer order holds there).
 */
class InJvmShuffleTest {

    private static final int TUPLE_BYTES = 16;
    private static final int TUPLES_PER_THREAD = 20_000;
    private static Path directory;

    @BeforeAll
    static void createDirectory() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-shuffle-test");
    }

    @AfterAll
    static void checkNothingLeft() throws IOException {
        try (Stream<Path> left = Files.list(directory)) {
            assertThat(left.toList()).as("shared files left behind").isEmpty();
        }
        Files.delete(directory);
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (EndpointDesign design : EndpointDesign.values()) {
            if (!EndpointFactory.isImplemented(design)) {
                continue;
            }
            for (String pattern : List.of("repartition", "multicast", "broadcast")) {
                for (int nodes : new int[] {2, 3}) {
                    for (int threads : new int[] {1, 2}) {
                        cases.add(Arguments.of(design, pattern, nodes, threads));
                    }
                }
            }
        }
        return cases.stream();
    }

    static TransmissionGroups groups(String pattern, int nodes) {
        return switch (pattern) {
            case "repartition" -> TransmissionGroups.repartition(nodes);
            case "broadcast" -> TransmissionGroups.broadcast(nodes);
            // overlapping groups: {0, 1}, {1, ..., n-1}, {0}
            case "multicast" -> TransmissionGroups.of(nodes, List.of(
                    new int[] {0, 1}, java.util.stream.IntStream.range(1, nodes).toArray(), new int[] {0}));
            default -> throw new IllegalArgumentException(pattern);
        };
    }

    /** The tuple a sending thread produces at position {@code i}: a key and a value unique in the whole run. */
    static long key(int node, int thread, int i) {
        return Partitioner.mix(((long) node << 40) ^ ((long) thread << 32) ^ i);
    }

    static long value(int node, int thread, int i) {
        return (long) node << 40 | (long) thread << 32 | i;
    }

    @ParameterizedTest(name = "{0} {1} nodes={2} threads={3}")
    @MethodSource("cases")
    void deliversEveryTupleExactlyOnce(EndpointDesign design, String pattern, int nodes, int threads)
            throws Exception {
        TransmissionGroups groups = groups(pattern, nodes);
        Partitioner partitioner = Partitioner.hashLongKey(groups.groupCount());
        EndpointConfig config = EndpointConfig.defaults(design, threads)
                .withBufferBytes(1024)
                .withBuffersPerPeer(4)
                .withStallTimeout(Duration.ofSeconds(20));

        // expected count and checksum per receiving node
        long[] expectedCount = new long[nodes];
        long[] expectedSum = new long[nodes];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tuple = arena.allocate(TUPLE_BYTES);
            for (int node = 0; node < nodes; node++) {
                for (int thread = 0; thread < threads; thread++) {
                    for (int i = 0; i < TUPLES_PER_THREAD; i++) {
                        tuple.set(ValueLayout.JAVA_LONG, 0, key(node, thread, i));
                        for (int member : groups.members(partitioner.group(tuple, 0))) {
                            expectedCount[member]++;
                            expectedSum[member] += Partitioner.mix(value(node, thread, i));
                        }
                    }
                }
            }
        }

        AtomicLongArray count = new AtomicLongArray(nodes);
        AtomicLongArray sum = new AtomicLongArray(nodes);
        AtomicLongArray outOfOrder = new AtomicLongArray(nodes);
        LocalPeerExchange.Group exchange = LocalPeerExchange.group(nodes, Duration.ofSeconds(20));
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            List<Future<?>> nodeRuns = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                int self = node;
                nodeRuns.add(pool.submit(() -> {
                    runNode(self, nodes, threads, config, groups, partitioner, exchange, pattern, count, sum,
                            outOfOrder);
                    return null;
                }));
            }
            for (Future<?> run : nodeRuns) {
                run.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        for (int node = 0; node < nodes; node++) {
            assertThat(count.get(node)).as("tuples received by node %d", node).isEqualTo(expectedCount[node]);
            assertThat(sum.get(node)).as("checksum at node %d", node).isEqualTo(expectedSum[node]);
            assertThat(outOfOrder.get(node)).as("out-of-order tuples at node %d", node).isZero();
        }
    }

    private static void runNode(int self, int nodes, int threads, EndpointConfig config, TransmissionGroups groups,
            Partitioner partitioner, LocalPeerExchange.Group exchange, String pattern, AtomicLongArray count,
            AtomicLongArray sum, AtomicLongArray outOfOrder) throws Exception {
        FabricConfig fabricConfig = FabricConfig.of("shm", "node-" + self)
                .withOption("shm.directory", directory.toString());
        try (Fabric fabric = Fabrics.open(fabricConfig);
                NodeEndpoints endpoints = EndpointFactory.open(
                        fabric, exchange.member(self), "test", config, groups)) {
            ShuffleSink sink = new ShuffleSink(endpoints, groups, partitioner, TUPLE_BYTES, threads);
            ExecutorService workers = Executors.newFixedThreadPool(2 * threads);
            try {
                List<Future<?>> runs = new ArrayList<>();
                for (int thread = 0; thread < threads; thread++) {
                    int t = thread;
                    runs.add(workers.submit(() -> {
                        send(sink.writer(t), self, t);
                        return null;
                    }));
                    runs.add(workers.submit(() -> {
                        receive(endpoints.receiver(t), self, nodes, threads, !pattern.equals("multicast"), count,
                                sum, outOfOrder);
                        return null;
                    }));
                }
                for (Future<?> run : runs) {
                    run.get(60, TimeUnit.SECONDS);
                }
            } finally {
                workers.shutdownNow();
            }
        }
    }

    private static void send(ShuffleSink.Writer writer, int node, int thread) {
        try (Arena arena = Arena.ofConfined()) {
            int batch = 1000;
            MemorySegment tuples = arena.allocate((long) batch * TUPLE_BYTES);
            for (int start = 0; start < TUPLES_PER_THREAD; start += batch) {
                for (int i = 0; i < batch; i++) {
                    tuples.set(ValueLayout.JAVA_LONG, (long) i * TUPLE_BYTES, key(node, thread, start + i));
                    tuples.set(ValueLayout.JAVA_LONG, (long) i * TUPLE_BYTES + 8, value(node, thread, start + i));
                }
                writer.add(tuples, 0, batch);
            }
        }
        writer.finish();
    }

    private static void receive(ReceiveEndpoint endpoint, int node, int nodes, int threads, boolean orderedPattern,
            AtomicLongArray count, AtomicLongArray sum, AtomicLongArray outOfOrder) {
        boolean checkOrder = threads == 1 && orderedPattern;
        long[][] last = new long[nodes][threads];
        for (long[] row : last) {
            java.util.Arrays.fill(row, -1);
        }
        long localCount = 0;
        long localSum = 0;
        long localOutOfOrder = 0;
        ShuffleBuffer buffer;
        while ((buffer = endpoint.getData()) != null) {
            MemorySegment payload = buffer.payload();
            for (int offset = 0; offset < buffer.payloadLength(); offset += TUPLE_BYTES) {
                long value = payload.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + 8);
                localCount++;
                localSum += Partitioner.mix(value);
                if (checkOrder) {
                    int sourceNode = (int) (value >>> 40);
                    int sourceThread = (int) (value >>> 32 & 0xff);
                    int i = (int) value;
                    if (i <= last[sourceNode][sourceThread]) {
                        localOutOfOrder++;
                    }
                    last[sourceNode][sourceThread] = i;
                }
            }
            endpoint.release(buffer);
        }
        count.addAndGet(node, localCount);
        sum.addAndGet(node, localSum);
        outOfOrder.addAndGet(node, localOutOfOrder);
    }
}
