package dev.faro.middleware.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.FaroException;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The DAIS16 transport behind the exchange SPI, nodes in one JVM over shm (and over the NIO baseline): three exchanges of one query open at once
 * (repartition, broadcast, gather) share the rings, each producing thread sends far more than a ring holds, every
 * receiving thread drains concurrently; every value arrives exactly once where its group says, and every stream ends.
 * A second query reuses the same middleware (its rings, its connections); a query that fails with rows left in the
 * rings gets every node's middleware replaced before the next one, which is again exact.
 */
class Dais16TransportTest {

    private static final int THREADS = 2;
    /** Longs per buffer: 8 KiB buffers, so BUFFERS of them are 2.4 MB per sending thread, many rings' worth. */
    private static final int LONGS = 1024;

    private static final int BUFFERS = 300;
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @ParameterizedTest(name = "{0} nodes over {1}")
    @CsvSource({"2, FABRIC", "3, FABRIC", "2, NIO"})
    void threeExchangesShareTheRingsExactlyOnceAcrossQueries(int nodes, NodeMiddleware.Backend backend)
            throws Exception {
        try (InJvmMiddlewareNodes cluster = new InJvmMiddlewareNodes(nodes, backend)) {
            runQuery(cluster, nodes, false);
            runQuery(cluster, nodes, false);
            for (NodeMiddleware middleware : cluster.middlewares) {
                assertThat(middleware.generation())
                        .as("middlewares opened at a node over two queries")
                        .isEqualTo(1);
                if (backend == NodeMiddleware.Backend.FABRIC) {
                    assertThat(middleware.middleware().connectionCount()).isEqualTo(nodes - 1);
                }
            }
            runQuery(cluster, nodes, true);
            runQuery(cluster, nodes, false);
            for (NodeMiddleware middleware : cluster.middlewares) {
                assertThat(middleware.generation())
                        .as("a failed query's stale rows replace the middleware everywhere")
                        .isEqualTo(2);
            }
        }
    }

    /**
     * Queries on two of three nodes and on all three in turn, as {@code faro bench middleware --experiments fig5} runs
     * its 4-process points on the first half of an 8-process cluster: every node of a query takes the same new
     * generation (its connection keys), whether it had a middleware of another shape (the first two), none at all
     * (the third, at the first query on three), or one whose peers have since replaced theirs (the third, at the
     * second query on three: its generation is lower than theirs), and every query is exactly once.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(NodeMiddleware.Backend.class)
    void queriesOnFewerAndOnAllNodesOfTheClusterAgreeOnTheMiddleware(NodeMiddleware.Backend backend) throws Exception {
        try (InJvmMiddlewareNodes cluster = new InJvmMiddlewareNodes(3, backend)) {
            runQuery(cluster, 2, false);
            runQuery(cluster, 3, false);
            assertGenerations(cluster, 2, 2, 2);
            runQuery(cluster, 2, false);
            assertGenerations(cluster, 3, 3, 2);
            runQuery(cluster, 3, false);
            assertGenerations(cluster, 4, 4, 4);
        }
    }

    private static void assertGenerations(InJvmMiddlewareNodes cluster, int... expected) {
        for (int node = 0; node < expected.length; node++) {
            assertThat(cluster.middlewares.get(node).generation())
                    .as("the generation of node %d", node)
                    .isEqualTo(expected[node]);
        }
    }

    /**
     * A second query's exchange opened at a node while the first query's exchanges are open there is refused with an
     * error that says why, before it shares or replaces anything: the first query then runs to its exact end.
     */
    @ParameterizedTest(name = "over {0}")
    @CsvSource({"FABRIC", "NIO"})
    void aSecondConcurrentQueryIsRefusedClearlyAndTheFirstGoesOn(NodeMiddleware.Backend backend) throws Exception {
        int nodes = 2;
        try (InJvmMiddlewareNodes cluster = new InJvmMiddlewareNodes(nodes, backend)) {
            runQuery(cluster, nodes, false);
            List<Dais16Transport> first = cluster.query();
            List<ExchangeChannel> channels = InJvmMiddlewareNodes.openEverywhere(
                    pool, first, "q1-x0", TransmissionGroups.repartition(nodes), THREADS);
            Dais16Transport second = cluster.query().get(0);
            assertThatThrownBy(() -> second.open("q2-x0", TransmissionGroups.repartition(nodes), THREADS))
                    .isInstanceOf(FaroException.class)
                    .hasMessageContaining("one query at a time")
                    .hasMessageContaining("q2-x0");
            List<Future<long[]>> received = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                for (int t = 0; t < THREADS; t++) {
                    ExchangeSender sender = channels.get(node).sender(t);
                    long base = (long) (node * THREADS + t) << 32;
                    pool.submit(() -> send(sender, TransmissionGroups.repartition(nodes), base, false));
                    ExchangeReceiver receiver = channels.get(node).receiver(t);
                    received.add(pool.submit(() -> receive(receiver)));
                }
            }
            long sum = 0;
            for (Future<long[]> r : received) {
                sum += r.get(120, TimeUnit.SECONDS)[1];
            }
            for (ExchangeChannel channel : channels) {
                channel.close();
            }
            assertThat(sum).as("the first query's sum").isEqualTo(expectedSum(nodes, (long) BUFFERS * LONGS));
            runQuery(cluster, nodes, false);
            for (NodeMiddleware middleware : cluster.middlewares) {
                assertThat(middleware.generation()).as("nothing was replaced").isEqualTo(1);
            }
        }
    }

    /**
     * The same-process shortcut: every buffer a sending thread fills for its own node reaches that node's receiving
     * thread by reference (the very memory the sender filled), with its contents, and none of it enters a ring; the
     * other node's buffers arrive copied.
     */
    @Test
    void buffersForTheOwnNodeAreHandedOverByReference() throws Exception {
        int nodes = 2;
        int perGroup = 50;
        try (InJvmMiddlewareNodes cluster = new InJvmMiddlewareNodes(nodes)) {
            List<Dais16Transport> transports = cluster.query();
            List<ExchangeChannel> channels = InJvmMiddlewareNodes.openEverywhere(
                    pool, transports, "byref", TransmissionGroups.repartition(nodes), 1);
            List<Future<Set<Long>>> filled = new ArrayList<>();
            List<Future<List<Long>>> received = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                int self = node;
                ExchangeSender sender = channels.get(node).sender(0);
                filled.add(pool.submit(() -> {
                    Set<Long> own = new HashSet<>();
                    for (int b = 0; b < 2 * perGroup; b++) {
                        int group = b % nodes;
                        MemorySegment payload = sender.payload(group);
                        if (group == self) {
                            own.add(payload.address());
                        }
                        payload.set(ValueLayout.JAVA_LONG, 0, group == self ? 1 : 2);
                        sender.length(group, Long.BYTES);
                        sender.send(group);
                    }
                    sender.finish();
                    return own;
                }));
                ExchangeReceiver receiver = channels.get(node).receiver(0);
                received.add(pool.submit(() -> {
                    // per buffer: its address if it came from this node (value 1), else -1 (value 2)
                    List<Long> buffers = new ArrayList<>();
                    ShuffleBuffer buffer;
                    while ((buffer = receiver.take()) != null) {
                        long value = buffer.payload().get(ValueLayout.JAVA_LONG, 0);
                        buffers.add(value == 1 ? buffer.payload().address() : -value);
                        receiver.release(buffer);
                    }
                    return buffers;
                }));
            }
            for (int node = 0; node < nodes; node++) {
                Set<Long> own = filled.get(node).get(60, TimeUnit.SECONDS);
                List<Long> buffers = received.get(node).get(60, TimeUnit.SECONDS);
                List<Long> fromSelf = buffers.stream().filter(a -> a > 0).toList();
                assertThat(buffers).as("buffers at node %d", node).hasSize(2 * perGroup);
                assertThat(fromSelf).as("own-node buffers at node %d", node).hasSize(perGroup);
                assertThat(own).as("memory the sender filled").hasSizeLessThanOrEqualTo(LocalBuffers.POOL);
                assertThat(own)
                        .as("own-node buffers arrived in that very memory")
                        .containsAll(fromSelf);
            }
            for (ExchangeChannel channel : channels) {
                channel.close();
            }
        }
    }

    private static TransmissionGroups[] kinds(int nodes) {
        return new TransmissionGroups[] {
            TransmissionGroups.repartition(nodes),
            TransmissionGroups.broadcast(nodes),
            TransmissionGroups.of(nodes, List.of(new int[] {0}))
        };
    }

    /**
     * One query: every node opens the three exchanges, runs a sending and a receiving thread per engine thread and
     * exchange, and checks the sums; {@code abandon}: the senders stop early, nobody receives, the channels close.
     */
    private void runQuery(InJvmMiddlewareNodes cluster, int nodes, boolean abandon) throws Exception {
        List<Dais16Transport> transports = cluster.query(nodes);
        TransmissionGroups[] kinds = kinds(nodes);
        List<Future<long[][]>> results = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            Dais16Transport transport = transports.get(node);
            results.add(pool.submit(() -> runNode(transport, kinds, abandon)));
        }
        List<long[][]> received = new ArrayList<>();
        for (Future<long[][]> result : results) {
            received.add(result.get(120, TimeUnit.SECONDS));
        }
        if (abandon) {
            return;
        }
        long perThread = (long) BUFFERS * LONGS;
        for (int node = 0; node < nodes; node++) {
            long[][] counts = received.get(node);
            // [kind] = {values received, sum of values}
            long repartition = nodes * THREADS * perThread / nodes;
            assertThat(counts[0][0]).as("repartition values at node %d", node).isEqualTo(repartition);
            assertThat(counts[1][0]).as("broadcast values at node %d", node).isEqualTo(nodes * THREADS * perThread);
            assertThat(counts[2][0])
                    .as("gather values at node %d", node)
                    .isEqualTo(node == 0 ? nodes * THREADS * perThread : 0);
            assertThat(counts[1][1]).as("broadcast sum at node %d", node).isEqualTo(expectedSum(nodes, perThread));
            if (node == 0) {
                assertThat(counts[2][1]).as("gather sum").isEqualTo(expectedSum(nodes, perThread));
            }
        }
        long total = 0;
        for (long[][] counts : received) {
            total += counts[0][1];
        }
        assertThat(total).as("repartition sum over every node").isEqualTo(expectedSum(nodes, perThread));
    }

    /** Value v of thread t at node n is ((n * THREADS + t) << 32) + v for v in [0, perThread). */
    private static long expectedSum(int nodes, long perThread) {
        long sum = 0;
        for (long sender = 0; sender < (long) nodes * THREADS; sender++) {
            sum += (sender << 32) * perThread + perThread * (perThread - 1) / 2;
        }
        return sum;
    }

    private long[][] runNode(Dais16Transport transport, TransmissionGroups[] kinds, boolean abandon) throws Exception {
        ExchangeChannel[] channels = new ExchangeChannel[kinds.length];
        for (int k = 0; k < kinds.length; k++) {
            channels[k] = transport.open("q-x" + k, kinds[k], THREADS);
        }
        int node = transport.nodeIndex();
        List<Future<long[]>> receiving = new ArrayList<>();
        List<Future<?>> sending = new ArrayList<>();
        try {
            for (int k = 0; k < kinds.length; k++) {
                for (int t = 0; t < THREADS; t++) {
                    ExchangeSender sender = channels[k].sender(t);
                    TransmissionGroups groups = kinds[k];
                    long base = (long) (node * THREADS + t) << 32;
                    sending.add(pool.submit(() -> send(sender, groups, base, abandon)));
                    if (!abandon) {
                        ExchangeReceiver receiver = channels[k].receiver(t);
                        receiving.add(pool.submit(() -> receive(receiver)));
                    }
                }
            }
            for (Future<?> s : sending) {
                s.get(120, TimeUnit.SECONDS);
            }
            long[][] counts = new long[kinds.length][2];
            for (int i = 0; i < receiving.size(); i++) {
                long[] r = receiving.get(i).get(120, TimeUnit.SECONDS);
                counts[i / THREADS][0] += r[0];
                counts[i / THREADS][1] += r[1];
            }
            return counts;
        } finally {
            for (ExchangeChannel channel : channels) {
                channel.close();
            }
        }
    }

    /**
     * Sends BUFFERS buffers of LONGS values, spread over the groups in turn; when abandoning, four buffers (they fit
     * the rings: nobody reads them) and no finish, as a failed query leaves them.
     */
    private static Void send(ExchangeSender sender, TransmissionGroups groups, long base, boolean abandon) {
        long value = 0;
        int buffers = abandon ? 4 : BUFFERS;
        for (int b = 0; b < buffers; b++) {
            int group = b % groups.groupCount();
            MemorySegment payload = sender.payload(group);
            int fill = sender.length(group);
            for (int i = 0; i < LONGS; i++) {
                payload.set(ValueLayout.JAVA_LONG, fill + (long) i * Long.BYTES, base + value++);
            }
            sender.length(group, fill + LONGS * Long.BYTES);
            sender.send(group);
        }
        if (!abandon) {
            sender.finish();
        }
        return null;
    }

    private static long[] receive(ExchangeReceiver receiver) {
        long count = 0;
        long sum = 0;
        ShuffleBuffer buffer;
        while ((buffer = receiver.take()) != null) {
            MemorySegment payload = buffer.payload();
            for (int offset = 0; offset < buffer.payloadLength(); offset += Long.BYTES) {
                sum += payload.get(ValueLayout.JAVA_LONG, offset);
                count++;
            }
            receiver.release(buffer);
        }
        return new long[] {count, sum};
    }
}
