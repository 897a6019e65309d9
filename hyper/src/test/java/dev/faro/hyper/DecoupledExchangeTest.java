package dev.faro.hyper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.testing.LongValues;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import dev.faro.shuffle.transport.ExchangeTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongToIntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The transport {@code hyper} between in-JVM nodes over {@code shm}, with small messages and pools so that workers
 * wait for messages and the network threads for credit: every value arrives exactly once at its node (repartition),
 * at every node (broadcast) or at node 0 (gather), streams end only after the last message, several exchanges of
 * several queries run at once over the same multiplexers, and every message's retain count is back at zero after
 * each query.
 */
class DecoupledExchangeTest {

    private static final int THREADS = 2;

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {2, 3})
    void repartitionDeliversEveryValueOnceAtItsNode(int nodes) throws Exception {
        try (HyperCluster cluster = new HyperCluster(nodes, HyperCluster.small())) {
            long[][] got = runQuery(cluster, "q", nodes, TransmissionGroups.repartition(nodes), 40_000);
            for (int node = 0; node < nodes; node++) {
                long[] expected = expected(nodes, 40_000, value -> (int) (value % nodes), node);
                assertThat(got[node]).as("count and sum at node %d", node).containsExactly(expected);
            }
            assertPoolsIdle(cluster);
            for (Multiplexer multiplexer : cluster.multiplexers) {
                assertThat(multiplexer.queuePairs()).isEqualTo(nodes - 1);
                assertThat(multiplexer.creditWrites()).as("credit came back").isPositive();
            }
        }
    }

    /** Round-robin phases (quota 2, so many phases) deliver the same, and the phases advance on every node. */
    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {3, 4})
    void roundRobinPhasesDeliverEveryValueOnce(int nodes) throws Exception {
        HyperConfig config =
                HyperCluster.small().withSchedule(NetworkSchedule.ROUND_ROBIN).withPhaseQuota(2);
        try (HyperCluster cluster = new HyperCluster(nodes, config)) {
            for (int query = 0; query < 2; query++) {
                long[][] got = runQuery(cluster, "rr" + query, nodes, TransmissionGroups.repartition(nodes), 20_000);
                for (int node = 0; node < nodes; node++) {
                    int self = node;
                    assertThat(got[node])
                            .containsExactly(expected(nodes, 20_000, value -> (int) (value % nodes), self));
                }
                assertPoolsIdle(cluster);
            }
            for (Multiplexer multiplexer : cluster.multiplexers) {
                // each node sends at least 20,000 / nodes values * 8 B / 4 KiB messages per peer, 2 per phase
                assertThat(multiplexer.phases()).as("phases completed").isGreaterThan(nodes * 2L);
            }
        }
    }

    @Test
    void broadcastReachesEveryNodeOnceFromOneRetainedMessage() throws Exception {
        int nodes = 3;
        try (HyperCluster cluster = new HyperCluster(nodes, HyperCluster.small())) {
            long[][] got = runQuery(cluster, "b", nodes, TransmissionGroups.broadcast(nodes), 20_000);
            for (int node = 0; node < nodes; node++) {
                int self = node;
                assertThat(got[node]).containsExactly(expected(nodes, 20_000, value -> self, node));
            }
            assertPoolsIdle(cluster);
            // one message per destination server: a broadcast takes a message once, not once per destination
            long taken = cluster.multiplexers.get(0).poolAcquires();
            long bytesPerNode = 20_000L / nodes * Long.BYTES * THREADS;
            assertThat(taken).isLessThan(2 * bytesPerNode / 4000 + 4L * THREADS);
        }
    }

    @Test
    void gatherEndsAtOnceAtNodesThatReceiveNothing() throws Exception {
        int nodes = 3;
        try (HyperCluster cluster = new HyperCluster(nodes, HyperCluster.small())) {
            TransmissionGroups gather = TransmissionGroups.of(nodes, List.of(new int[] {0}));
            long[][] got = runQuery(cluster, "g", nodes, gather, 10_000);
            assertThat(got[0]).containsExactly(expected(nodes, 10_000, value -> 0, 0));
            assertThat(got[1]).containsExactly(0, 0);
            assertThat(got[2]).containsExactly(0, 0);
            assertPoolsIdle(cluster);
        }
    }

    @Test
    void anExchangeWithoutRowsEndsEverywhere() throws Exception {
        try (HyperCluster cluster = new HyperCluster(2, HyperCluster.small())) {
            long[][] got = runQuery(cluster, "empty", 2, TransmissionGroups.repartition(2), 0);
            assertThat(got[0]).containsExactly(0, 0);
            assertThat(got[1]).containsExactly(0, 0);
            assertPoolsIdle(cluster);
        }
    }

    @Test
    void severalQueriesWithSeveralExchangesShareTheMultiplexers() throws Exception {
        int nodes = 3;
        try (HyperCluster cluster = new HyperCluster(nodes, HyperCluster.small())) {
            List<Future<long[][]>> queries = new ArrayList<>();
            for (int query = 0; query < 3; query++) {
                String name = "q" + query;
                queries.add(cluster.pool()
                        .submit(() -> runQuery(cluster, name, nodes, TransmissionGroups.repartition(nodes), 15_000)));
            }
            for (Future<long[][]> query : queries) {
                long[][] got = query.get(120, TimeUnit.SECONDS);
                for (int node = 0; node < nodes; node++) {
                    int self = node;
                    assertThat(got[node])
                            .containsExactly(expected(nodes, 15_000, value -> (int) (value % nodes), self));
                }
            }
            assertPoolsIdle(cluster);
            for (Multiplexer multiplexer : cluster.multiplexers) {
                assertThat(multiplexer.queuePairs())
                        .as("one queue pair per peer, whatever the queries")
                        .isEqualTo(2);
                assertThat(multiplexer.dropped()).isZero();
            }
        }
    }

    /**
     * Many more exchanges than a peer has receives posted: every end marker and every message returns its credit,
     * and every query finds its pool as the previous one left it (same region, retain counts at zero).
     */
    @Test
    void exchangesAfterExchangesReuseThePoolAndTheCredit() throws Exception {
        int nodes = 2;
        try (HyperCluster cluster = new HyperCluster(nodes, HyperCluster.small())) {
            long registered = cluster.multiplexers.get(0).registeredBytes();
            for (int query = 0; query < 12; query++) {
                long[][] got = runQuery(cluster, "s" + query, nodes, TransmissionGroups.repartition(nodes), 2_000);
                for (int node = 0; node < nodes; node++) {
                    int self = node;
                    assertThat(got[node]).containsExactly(expected(nodes, 2_000, value -> (int) (value % nodes), self));
                }
                assertPoolsIdle(cluster);
            }
            assertThat(cluster.multiplexers.get(0).registeredBytes()).isEqualTo(registered);
        }
    }

    static void assertPoolsIdle(HyperCluster cluster) throws InterruptedException {
        cluster.awaitIdle();
        for (Multiplexer multiplexer : cluster.multiplexers) {
            assertThat(multiplexer.retained())
                    .as("retain counts after the query")
                    .isZero();
            assertThat(multiplexer.sendMessagesInUse())
                    .as("send messages not back in the pool")
                    .isZero();
        }
    }

    /** Count and sum of the values node {@code node} must receive: sender s sends s * 1e6 + i for i < values. */
    static long[] expected(int nodes, int values, LongToIntFunction destination, int node) {
        long count = 0;
        long sum = 0;
        for (int sender = 0; sender < nodes; sender++) {
            for (long i = 0; i < values; i++) {
                long value = sender * 1_000_000L + i;
                if (destination.applyAsInt(value) == node) {
                    count++;
                    sum += value;
                }
            }
        }
        return new long[] {count, sum};
    }

    /**
     * One exchange of one query on every node: {@value #THREADS} producing threads per node split the node's values
     * (thread t takes i % THREADS == t), value v goes to group {@code v % groups} (repartition) or group 0, and
     * {@value #THREADS} consuming threads drain alongside. Returns each node's received count and sum.
     */
    static long[][] runQuery(HyperCluster cluster, String name, int nodes, TransmissionGroups groups, int values)
            throws Exception {
        return runQuery(cluster, cluster.query(), name, nodes, groups, values);
    }

    /** As {@link #runQuery(HyperCluster, String, int, TransmissionGroups, int)} over the given transports. */
    static long[][] runQuery(
            HyperCluster cluster,
            List<HyperTransport> transports,
            String name,
            int nodes,
            TransmissionGroups groups,
            int values)
            throws Exception {
        ExecutorService pool = cluster.pool();
        List<Future<long[]>> results = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            int self = node;
            results.add(pool.submit(() -> runNode(transports.get(self), pool, name, groups, values)));
        }
        long[][] got = new long[nodes][];
        for (int node = 0; node < nodes; node++) {
            got[node] = results.get(node).get(120, TimeUnit.SECONDS);
        }
        return got;
    }

    private static long[] runNode(
            ExchangeTransport transport, ExecutorService pool, String name, TransmissionGroups groups, int values)
            throws Exception {
        int node = transport.nodeIndex();
        try (ExchangeChannel channel = transport.open(name + "-x1", groups, THREADS)) {
            List<Future<long[]>> receivers = new ArrayList<>();
            for (int thread = 0; thread < THREADS; thread++) {
                ExchangeReceiver receiver = channel.receiver(thread);
                receivers.add(pool.submit(() -> receive(receiver)));
            }
            List<Future<?>> senders = new ArrayList<>();
            for (int thread = 0; thread < THREADS; thread++) {
                ExchangeSender sender = channel.sender(thread);
                int self = thread;
                Callable<Void> send = () -> {
                    for (long i = self; i < values; i += THREADS) {
                        long value = node * 1_000_000L + i;
                        int group = groups.groupCount() == 1 ? 0 : (int) (value % groups.groupCount());
                        LongValues.write(sender, group, value);
                    }
                    sender.finish();
                    return null;
                };
                senders.add(pool.submit(send));
            }
            for (Future<?> sender : senders) {
                sender.get(120, TimeUnit.SECONDS);
            }
            long count = 0;
            long sum = 0;
            for (Future<long[]> receiver : receivers) {
                long[] got = receiver.get(120, TimeUnit.SECONDS);
                count += got[0];
                sum += got[1];
            }
            assertThat(channel.buffersHeldHighWater())
                    .as("buffers the threads held at once")
                    .isLessThanOrEqualTo(THREADS * groups.groupCount() + THREADS);
            return new long[] {count, sum};
        }
    }

    static long[] receive(ExchangeReceiver receiver) {
        long[] got = LongValues.drain(receiver);
        assertThat(receiver.take()).isNull();
        return got;
    }
}
