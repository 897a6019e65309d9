package dev.faro.shuffle.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.baseline.TcpShuffleConfig;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.testing.LongValues;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every transport behind the SPI, between two in-JVM nodes: each node encodes 8-byte values straight into its groups'
 * buffers (a repartition), finishes, and receives every value sent to it exactly once, read in place; the engine-side
 * buffer high-water mark stays within one open buffer per group and one received buffer per thread.
 */
class ExchangeTransportTest {

    private static final int VALUES = 50_000;
    private static final SharedSecret SECRET = SharedSecret.of("transport test", "the test");
    /** The designs' and TCP's default stall timeout. */
    private static final Duration DEFAULT_STALL = EndpointConfig.DEFAULT_STALL_TIMEOUT;

    private Path directory;

    /** Loads and initializes the readiness classes first, so that no test's allocation count includes it. */
    @BeforeAll
    static void warmUpReadiness() {
        for (int i = 0; i < 100; i++) {
            new ReadinessPoller.Waiter(Duration.ofSeconds(1).toNanos(), dev.faro.shuffle.endpoint.ProgressSignal.NONE) {
                @Override
                protected boolean retry() {
                    return true;
                }
            }.whenReady().join();
        }
    }

    @BeforeEach
    void createDirectory() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "transport-test-faro"); // not faro-*: swept
    }

    @AfterEach
    void deleteDirectory() throws IOException {
        try (Stream<Path> left = Files.walk(directory)) {
            left.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {"SESQ_SR", "MESQ_SR", "SEMQ_SR", "MEMQ_SR", "SEMQ_RD", "MEMQ_RD", "SEMQ_WR", "MEMQ_WR", "tcp"})
    void everyValueArrivesOnceAtItsNode(String name) throws Exception {
        List<long[]> nodes = onBothNodes(name, "x", DEFAULT_STALL, ExchangeTransportTest::run);
        for (int node = 0; node < 2; node++) {
            long[] got = nodes.get(node);
            // node n receives the values v with v % 2 == n, from both nodes: each once
            long expectedCount = VALUES; // VALUES / 2 per sender, two senders
            long expectedSum = expectedSum(node);
            assertThat(got[0]).as("values at node " + node).isEqualTo(expectedCount);
            assertThat(got[1]).as("sum at node " + node).isEqualTo(expectedSum);
            assertThat(got[2]).as("buffers held at once").isBetween(1L, 3L); // 2 groups + 1 received (one thread)
        }
    }

    /**
     * The same through the non-blocking forms a yielding driver uses (tryPayload, trySend, tryFinish, poll; waiting on
     * whenReady only when a try could not proceed): every value once, and the tries allocate nothing: the bytes the
     * sending and receiving threads allocate are bounded by their waits (one readiness stage each), not by the buffers.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {"SESQ_SR", "MESQ_SR", "SEMQ_SR", "MEMQ_SR", "SEMQ_RD", "MEMQ_RD", "SEMQ_WR", "MEMQ_WR", "tcp"})
    void everyValueArrivesOnceThroughTheNonBlockingForms(String name) throws Exception {
        List<long[]> nodes = onBothNodes(name, "nb", DEFAULT_STALL, ExchangeTransportTest::runNonBlocking);
        for (int node = 0; node < 2; node++) {
            long[] got = nodes.get(node);
            long expectedSum = expectedSum(node);
            assertThat(got[0]).as("values at node " + node).isEqualTo(VALUES);
            assertThat(got[1]).as("sum at node " + node).isEqualTo(expectedSum);
            // got[2]: bytes allocated by both threads, got[3]: their waits
            assertThat(got[2]).as("bytes allocated, %d waits", got[3]).isLessThan(16 * 1024 + got[3] * 512);
        }
    }

    private static long[] runNonBlocking(ExchangeChannel opened, PeerExchange peer, int node) throws Exception {
        try (ExchangeChannel channel = opened) {
            CompletableFuture<long[]> received = CompletableFuture.supplyAsync(
                    () -> pollAll(channel.receiver(0)),
                    runnable -> Thread.ofPlatform().daemon().start(runnable));
            ExchangeSender sender = channel.sender(0);
            long waits = 0;
            long before = allocatedBytes();
            for (long i = 0; i < VALUES; i++) {
                long value = node * 1_000_000L + i;
                int group = (int) (value % 2);
                MemorySegment payload;
                while ((payload = sender.tryPayload(group)) == null) {
                    sender.whenReady().toCompletableFuture().join();
                    waits++;
                }
                int length = sender.length(group);
                if (length + Long.BYTES > payload.byteSize()) {
                    while (!sender.trySend(group)) {
                        sender.whenReady().toCompletableFuture().join();
                        waits++;
                    }
                    while ((payload = sender.tryPayload(group)) == null) {
                        sender.whenReady().toCompletableFuture().join();
                        waits++;
                    }
                    length = sender.length(group);
                }
                payload.set(ValueLayout.JAVA_LONG_UNALIGNED, length, value);
                sender.length(group, length + Long.BYTES);
            }
            while (!sender.tryFinish()) {
                sender.whenReady().toCompletableFuture().join();
                waits++;
            }
            long allocated = allocatedBytes() - before;
            long[] got = received.get(120, TimeUnit.SECONDS);
            return new long[] {got[0], got[1], allocated + got[2], waits + got[3]};
        }
    }

    /**
     * A query that failed gives its exchanges up ({@link ExchangeChannel#abandon}): every node has sent data and
     * ended its streams, nobody received, and each node's close must not wait for its peers to confirm the end (the
     * peers' queries failed too). Before abandon existed the senders waited out the stall timeout, here ten minutes,
     * so the test's own limit fails that.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {"SESQ_SR", "MESQ_SR", "SEMQ_SR", "MEMQ_SR", "SEMQ_RD", "MEMQ_RD", "SEMQ_WR", "MEMQ_WR", "tcp"})
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void anAbandonedExchangeClosesWithoutWaitingForItsPeers(String name) throws Exception {
        onBothNodes(name, "abandon", Duration.ofMinutes(10), (channel, peer, node) -> {
            ExchangeSender sender = channel.sender(0);
            for (int group = 0; group < 2; group++) {
                sender.payload(group).set(ValueLayout.JAVA_LONG_UNALIGNED, 0, node);
                sender.length(group, Long.BYTES);
            }
            sender.finish();
            peer.allGather("abandon-" + name + "/finished", new byte[0]); // both streams ended
            channel.abandon();
            return null;
        });
    }

    /** Count, sum, bytes allocated and waits of a receiver that polls and waits on whenReady. */
    private static long[] pollAll(ExchangeReceiver receiver) {
        long count = 0;
        long sum = 0;
        long waits = 0;
        long before = allocatedBytes();
        while (true) {
            ShuffleBuffer buffer = receiver.poll();
            if (buffer == ExchangeReceiver.NOT_YET) {
                receiver.whenReady().toCompletableFuture().join();
                waits++;
                continue;
            }
            if (buffer == null) {
                break;
            }
            for (int at = 0; at < buffer.payloadLength(); at += Long.BYTES) {
                sum += buffer.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, at);
                count++;
            }
            receiver.release(buffer);
        }
        long allocated = allocatedBytes() - before;
        assertThat(receiver.poll()).isNull();
        return new long[] {count, sum, allocated, waits};
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }

    private static long[] receive(ExchangeReceiver receiver) {
        long[] got = LongValues.drain(receiver);
        assertThat(receiver.take()).isNull();
        return got;
    }

    /** The sum of the values both nodes send to {@code node}: node n's values are n * 1,000,000 + i, i < VALUES. */
    private static long expectedSum(int node) {
        long sum = 0;
        for (int sender = 0; sender < 2; sender++) {
            for (long i = 0; i < VALUES; i++) {
                long value = sender * 1_000_000L + i;
                if (value % 2 == node) {
                    sum += value;
                }
            }
        }
        return sum;
    }

    private static long[] run(ExchangeChannel opened, PeerExchange peer, int node) throws Exception {
        try (ExchangeChannel channel = opened) {
            // the receiving side drains while the sending side sends: credit comes back only as buffers are
            // taken and released (UD designs grant none otherwise)
            CompletableFuture<long[]> received = CompletableFuture.supplyAsync(
                    () -> receive(channel.receiver(0)),
                    runnable -> Thread.ofPlatform().daemon().start(runnable));
            ExchangeSender sender = channel.sender(0);
            for (long i = 0; i < VALUES; i++) {
                long value = node * 1_000_000L + i;
                LongValues.write(sender, (int) (value % 2), value);
            }
            sender.finish();
            long[] got = received.get(120, TimeUnit.SECONDS);
            return new long[] {got[0], got[1], channel.buffersHeldHighWater()};
        }
    }

    /** What one node does with its end of the exchange (it closes or abandons the channel). */
    @FunctionalInterface
    private interface OnNode<T> {
        T run(ExchangeChannel channel, PeerExchange peer, int node) throws Exception;
    }

    /**
     * Runs {@code body} on two in-JVM nodes at once, each on its own thread with its own transport {@code name} (a
     * design over its own shm fabric, or TCP) whose waits stall after {@code stall}, on one exchange {@code
     * prefix-name} of a two-node repartition; returns each node's result.
     */
    private <T> List<T> onBothNodes(String name, String prefix, Duration stall, OnNode<T> body) throws Exception {
        LocalPeerExchange.Group peers = LocalPeerExchange.group(2, Duration.ofSeconds(30));
        List<CompletableFuture<T>> nodes = new ArrayList<>();
        for (int node = 0; node < 2; node++) {
            int self = node;
            nodes.add(CompletableFuture.supplyAsync(
                    () -> {
                        PeerExchange peer = peers.member(self);
                        Fabric fabric = null;
                        try {
                            ExchangeTransport transport;
                            if (name.equals("tcp")) {
                                transport = new TcpSocketTransport(
                                        peer,
                                        SECRET,
                                        threads -> TcpShuffleConfig.perThread(threads)
                                                .withStallTimeout(stall));
                            } else {
                                fabric = Fabrics.open(FabricConfig.of("shm", prefix + "-" + name + "-" + self)
                                        .withOption("shm.directory", directory.toString()));
                                EndpointDesign design = EndpointDesign.valueOf(name);
                                transport = new DesignTransport(
                                        fabric,
                                        peer,
                                        design,
                                        threads -> EndpointConfig.defaults(design, threads)
                                                .withStallTimeout(stall));
                            }
                            assertThat(transport.nodeIndex()).isEqualTo(self);
                            return body.run(
                                    transport.open(prefix + "-" + name, TransmissionGroups.repartition(2), 1),
                                    peer,
                                    self);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        } finally {
                            if (fabric != null) {
                                fabric.close();
                            }
                        }
                    },
                    runnable -> Thread.ofPlatform().daemon().start(runnable)));
        }
        List<T> results = new ArrayList<>();
        for (CompletableFuture<T> node : nodes) {
            results.add(node.get(120, TimeUnit.SECONDS));
        }
        return results;
    }
}
