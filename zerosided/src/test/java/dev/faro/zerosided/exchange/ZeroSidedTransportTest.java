package dev.faro.zerosided.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import dev.faro.shuffle.transport.ExchangeTransports;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The zero-sided transport behind the exchange SPI, nodes in one JVM: a repartition, a broadcast and a gather of one
 * query open at once, each producing thread sends many times what its producer buffers hold, every receiving thread
 * drains concurrently from the node's shared consumer buffer; every value arrives exactly once where its group says and
 * every stream ends. A node that stops sending without finishing fails every node's exchange (no hang), and an
 * exchange kind the switch cannot serve is refused by name.
 */
class ZeroSidedTransportTest {

    private static final int THREADS = 2;
    /** Longs per buffer: 16 KiB of a 32 KiB item. */
    private static final int LONGS = 2048;

    private static final int BUFFERS = 120;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    /** Each node's packet links, kept across queries as a worker keeps them. */
    private final List<LinkPool> links = new ArrayList<>();

    @AfterEach
    void stop() {
        pool.shutdownNow();
        links.forEach(LinkPool::close);
    }

    @Test
    void registeredByName() {
        assertThat(ExchangeTransports.names()).contains(ZeroSidedTransport.NAME);
        assertThat(ExchangeTransports.resolve("zero-sided")).isEqualTo(ZeroSidedTransport.NAME);
    }

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {2, 3})
    void repartitionBroadcastAndGatherExactlyOnceInTwoQueries(int nodes) throws Exception {
        for (int query = 0; query < 2; query++) {
            repartitionBroadcastAndGatherExactlyOnce(nodes);
        }
        assertThat(links)
                .as("one pool per node, its links reused by the second query")
                .hasSize(nodes);
    }

    private void repartitionBroadcastAndGatherExactlyOnce(int nodes) throws Exception {
        List<ZeroSidedTransport> transports = transports(nodes, Duration.ofSeconds(30));
        TransmissionGroups[] kinds = {
            TransmissionGroups.repartition(nodes),
            TransmissionGroups.broadcast(nodes),
            TransmissionGroups.of(nodes, List.of(new int[] {0}))
        };
        List<Future<long[][]>> results = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            ZeroSidedTransport transport = transports.get(node);
            results.add(pool.submit(() -> runNode(transport, kinds, BUFFERS)));
        }
        List<long[][]> received = new ArrayList<>();
        for (Future<long[][]> result : results) {
            received.add(result.get(120, TimeUnit.SECONDS));
        }
        long perThread = (long) BUFFERS * LONGS;
        long all = nodes * THREADS * perThread;
        long repartitionValues = 0;
        long repartitionSum = 0;
        for (int node = 0; node < nodes; node++) {
            long[][] counts = received.get(node);
            repartitionValues += counts[0][0];
            repartitionSum += counts[0][1];
            assertThat(counts[1][0]).as("broadcast values at node %d", node).isEqualTo(all);
            assertThat(counts[1][1]).as("broadcast sum at node %d", node).isEqualTo(expectedSum(nodes, perThread));
            assertThat(counts[2][0]).as("gather values at node %d", node).isEqualTo(node == 0 ? all : 0);
        }
        assertThat(received.get(0)[2][1]).as("gather sum").isEqualTo(expectedSum(nodes, perThread));
        assertThat(repartitionValues).as("repartition values").isEqualTo(all);
        assertThat(repartitionSum).as("repartition sum").isEqualTo(expectedSum(nodes, perThread));
    }

    @Test
    void aNodeThatStopsSendingFailsEveryNode() throws Exception {
        int nodes = 3;
        List<ZeroSidedTransport> transports = transports(nodes, Duration.ofSeconds(2));
        TransmissionGroups[] kinds = {TransmissionGroups.repartition(nodes)};
        List<Future<long[][]>> results = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            ZeroSidedTransport transport = transports.get(node);
            int buffers = node == 1 ? -2 : BUFFERS; // node 1: two buffers, then it stops without finishing
            results.add(pool.submit(() -> runNode(transport, kinds, buffers)));
        }
        for (int node = 0; node < nodes; node++) {
            Future<long[][]> result = results.get(node);
            assertThatThrownBy(() -> result.get(60, TimeUnit.SECONDS))
                    .as("node %d", node)
                    .rootCause()
                    .isInstanceOf(FaroException.class)
                    .hasMessageContaining("no data arrived");
        }
    }

    @Test
    void aMulticastToSeveralGroupsOfSeveralNodesIsRefusedByName() {
        ZeroSidedTransport transport = transports(3, Duration.ofSeconds(5)).getFirst();
        TransmissionGroups multicast = TransmissionGroups.of(3, List.of(new int[] {0, 1}, new int[] {2}));
        assertThatThrownBy(() -> transport.open("q-multicast", multicast, THREADS))
                .isInstanceOf(FaroException.class)
                .hasMessageContaining("cannot serve a multicast exchange");
    }

    /** One query's transports, over each node's pool of links (made by the first query). */
    private List<ZeroSidedTransport> transports(int nodes, Duration stallTimeout) {
        LocalPeerExchange.Group group = LocalPeerExchange.group(nodes, Duration.ofSeconds(30));
        List<ZeroSidedTransport> transports = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            if (links.size() == node) {
                links.add(new LinkPool());
            }
            transports.add(
                    new ZeroSidedTransport(links.get(node), group.member(node), stallTimeout, ProgressSignal.NONE));
        }
        return transports;
    }

    /** Value v of thread t at node n is ((n * THREADS + t) << 32) + v for v in [0, perThread). */
    private static long expectedSum(int nodes, long perThread) {
        long sum = 0;
        for (long sender = 0; sender < (long) nodes * THREADS; sender++) {
            sum += (sender << 32) * perThread + perThread * (perThread - 1) / 2;
        }
        return sum;
    }

    /** Opens every kind, sends {@code buffers} per thread (negative: that many, then stops unfinished), receives. */
    private long[][] runNode(ZeroSidedTransport transport, TransmissionGroups[] kinds, int buffers) throws Exception {
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
                    sending.add(pool.submit(() -> send(sender, groups, base, buffers)));
                    ExchangeReceiver receiver = channels[k].receiver(t);
                    receiving.add(pool.submit(() -> receive(receiver)));
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

    private static Void send(ExchangeSender sender, TransmissionGroups groups, long base, int buffers) {
        long value = 0;
        for (int b = 0; b < Math.abs(buffers); b++) {
            int group = b % groups.groupCount();
            MemorySegment payload = sender.payload(group);
            int fill = sender.length(group);
            for (int i = 0; i < LONGS; i++) {
                payload.set(ValueLayout.JAVA_LONG, fill + (long) i * Long.BYTES, base + value++);
            }
            sender.length(group, fill + LONGS * Long.BYTES);
            sender.send(group);
        }
        if (buffers >= 0) {
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
        assertThat(receiver.take()).as("after the end of stream").isNull();
        return new long[] {count, sum};
    }
}
