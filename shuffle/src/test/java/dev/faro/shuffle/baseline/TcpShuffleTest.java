package dev.faro.shuffle.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.operator.Partitioner;
import dev.faro.shuffle.operator.ReceiveSource;
import dev.faro.shuffle.operator.ShuffleSink;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The TCP socket baseline with every node in this JVM: SHUFFLE and RECEIVE run unchanged over it, and every tuple
 * arrives exactly once (count and an order-independent checksum per node), in order per sending thread where TCP
 * promises it; a sender that vanishes before its last buffer fails the stream.
 */
class TcpShuffleTest {

    private static final int TUPLE_BYTES = 16;
    static final SharedSecret SECRET = SharedSecret.of("tcp shuffle test secret", "the test");

    @ParameterizedTest(name = "{0} nodes, {1} threads, {2} endpoint(s), {3}, {4} B messages")
    @CsvSource({
        "2, 1, 1, repartition, 131072",
        "3, 2, 2, repartition, 131072",
        "3, 2, 1, repartition, 1024",
        "2, 2, 2, broadcast, 1024",
        "3, 1, 1, broadcast, 4096",
    })
    void everyTupleArrivesExactlyOnce(int nodes, int threads, int endpoints, String pattern, int messageBytes)
            throws Exception {
        TransmissionGroups groups = pattern.equals("broadcast")
                ? TransmissionGroups.broadcast(nodes)
                : TransmissionGroups.repartition(nodes);
        TcpShuffleConfig config = new TcpShuffleConfig(endpoints, threads, messageBytes, Duration.ofSeconds(20));
        int rows = 20_000;
        long[][] received = run(nodes, threads, groups, config, rows, (node, exchange) -> exchange);

        long[][] expected = expected(nodes, threads, groups, rows);
        assertThat(received[0]).as("tuples per node").containsExactly(expected[0]);
        assertThat(received[1]).as("checksum per node").containsExactly(expected[1]);
        if (endpoints == threads) {
            assertThat(received[2])
                    .as("out of order per node (TCP keeps each thread's stream in order)")
                    .containsOnly(0L);
        }
    }

    @Test
    void aSenderThatClosesBeforeItsLastBufferFailsTheStream() throws Exception {
        TcpShuffleConfig config = new TcpShuffleConfig(1, 1, 1024, Duration.ofSeconds(20));
        LocalPeerExchange.Group group = LocalPeerExchange.group(2, Duration.ofSeconds(20));
        ExecutorService executor = Executors.newCachedThreadPool();
        try {
            List<Future<NodeEndpoints>> opening = new ArrayList<>();
            for (int node = 0; node < 2; node++) {
                int self = node;
                opening.add(executor.submit(() -> TcpShuffleOpener.open(
                        group.member(self), "early-close", config, TransmissionGroups.repartition(2), SECRET)));
            }
            NodeEndpoints first = opening.get(0).get(20, TimeUnit.SECONDS);
            NodeEndpoints second = opening.get(1).get(20, TimeUnit.SECONDS);
            // node 1 sends one full buffer to node 0 and disappears without DEPLETED
            ShuffleBuffer buffer = second.sender(0).acquire();
            buffer.payloadLength(TUPLE_BYTES);
            second.sender(0).putData(buffer, new int[] {0}, StreamState.MORE_DATA);
            second.close();
            first.sender(0).putData(first.sender(0).acquire(), new int[] {0, 1}, StreamState.DEPLETED);

            assertThatThrownBy(() -> {
                        ShuffleBuffer data;
                        while ((data = first.receiver(0).getData()) != null) {
                            first.receiver(0).release(data); // drain until the missing DEPLETED surfaces
                        }
                    })
                    .isInstanceOf(FaroException.class)
                    .hasMessageContaining("before its last buffer");
            first.close();
        } finally {
            executor.shutdownNow();
        }
    }

    /** Per node: the tuples and the checksum {@link #run} must report. */
    static long[][] expected(int nodes, int threads, TransmissionGroups groups, int rows) {
        long[][] expected = new long[2][nodes];
        for (int node = 0; node < nodes; node++) {
            for (int thread = 0; thread < threads; thread++) {
                for (int row = 0; row < rows; row++) {
                    long key = key(node, thread, row);
                    int group = groups.groupCount() == 1
                            ? 0
                            : (int) Long.remainderUnsigned(Partitioner.mix(key), groups.groupCount());
                    for (int member : groups.members(group)) {
                        expected[0][member]++;
                        expected[1][member] += Partitioner.mix(value(node, thread, row));
                    }
                }
            }
        }
        return expected;
    }

    private static long key(int node, int thread, int row) {
        return Partitioner.mix(((long) node << 40) ^ ((long) thread << 32) ^ row);
    }

    private static long value(int node, int thread, int row) {
        return (long) node << 40 | (long) thread << 32 | row;
    }

    /**
     * Runs the shuffle, each node's peer exchange wrapped by {@code wrap} (to watch or meddle); returns per node:
     * tuples, checksum, out-of-order tuples, connections its receive endpoints refused.
     */
    static long[][] run(
            int nodes,
            int threads,
            TransmissionGroups groups,
            TcpShuffleConfig config,
            int rows,
            BiFunction<Integer, PeerExchange, PeerExchange> wrap)
            throws Exception {
        LocalPeerExchange.Group exchange = LocalPeerExchange.group(nodes, Duration.ofSeconds(20));
        long[][] result = new long[4][nodes];
        ExecutorService executor = Executors.newCachedThreadPool();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                int self = node;
                running.add(executor.submit(() -> {
                    runNode(
                            self,
                            threads,
                            groups,
                            config,
                            rows,
                            wrap.apply(self, exchange.member(self)),
                            executor,
                            result);
                    return null;
                }));
            }
            for (Future<?> future : running) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            executor.shutdownNow();
        }
        return result;
    }

    private static void runNode(
            int node,
            int threads,
            TransmissionGroups groups,
            TcpShuffleConfig config,
            int rows,
            PeerExchange exchange,
            ExecutorService executor,
            long[][] result)
            throws Exception {
        try (NodeEndpoints endpoints = TcpShuffleOpener.open(exchange, "test", config, groups, SECRET);
                Arena arena = Arena.ofShared()) {
            ShuffleSink sink = new ShuffleSink(
                    endpoints, groups, Partitioner.hashLongKey(groups.groupCount()), TUPLE_BYTES, threads);
            List<Future<long[]>> futures = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int t = thread;
                MemorySegment table = arena.allocate((long) rows * TUPLE_BYTES, 8);
                for (int row = 0; row < rows; row++) {
                    table.set(ValueLayout.JAVA_LONG, (long) row * TUPLE_BYTES, key(node, t, row));
                    table.set(ValueLayout.JAVA_LONG, (long) row * TUPLE_BYTES + 8, value(node, t, row));
                }
                futures.add(executor.submit(() -> {
                    ShuffleSink.Writer writer = sink.writer(t);
                    for (int first = 0; first < rows; first += 1000) {
                        writer.add(table, (long) first * TUPLE_BYTES, Math.min(1000, rows - first));
                    }
                    writer.finish();
                    return new long[3];
                }));
                futures.add(executor.submit(() -> receive(endpoints, t, groups.nodes(), threads)));
            }
            for (Future<long[]> future : futures) {
                long[] counts = future.get(60, TimeUnit.SECONDS);
                for (int i = 0; i < 3; i++) {
                    result[i][node] += counts[i];
                }
            }
            for (ReceiveEndpoint receiver : endpoints.receivers()) {
                result[3][node] += ((TcpReceiveEndpoint) receiver).refusedConnections();
            }
        }
    }

    private static long[] receive(NodeEndpoints endpoints, int thread, int nodes, int threads) {
        ReceiveSource source = new ReceiveSource(endpoints.receiver(thread), TUPLE_BYTES);
        long[] lastRow = new long[nodes * threads];
        java.util.Arrays.fill(lastRow, -1);
        long count = 0;
        long sum = 0;
        long outOfOrder = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment vector = arena.allocate(512L * TUPLE_BYTES, 8);
            int tuples;
            while ((tuples = source.next(vector)) > 0) {
                for (int i = 0; i < tuples; i++) {
                    long value = vector.get(ValueLayout.JAVA_LONG, (long) i * TUPLE_BYTES + 8);
                    sum += Partitioner.mix(value);
                    int stream = (int) (value >>> 40) * threads + (int) (value >>> 32 & 0xff);
                    long row = (int) value;
                    if (row <= lastRow[stream]) {
                        outOfOrder++;
                    }
                    lastRow[stream] = row;
                }
                count += tuples;
            }
        }
        return new long[] {count, sum, outOfOrder};
    }
}
