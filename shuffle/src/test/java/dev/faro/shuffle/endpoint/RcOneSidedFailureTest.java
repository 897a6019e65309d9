package dev.faro.shuffle.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.endpoint.write.WriteCompletionMode;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The one-sided designs when a peer dies mid-shuffle: node 1's fabric closes under its open endpoints while node 0
 * sends to it and waits for its data. Node 0's sending and receiving calls must fail with {@code NETWORK} well
 * before the stall timeout (the broken queue pair or an error completion says so), every later call must fail the
 * same way, and close must free everything without waiting.
 */
class RcOneSidedFailureTest {

    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(30);
    private static Path directory;

    @BeforeAll
    static void createDirectory() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-one-sided-failure");
    }

    @AfterAll
    static void deleteDirectory() throws IOException {
        try (Stream<Path> left = Files.walk(directory)) {
            left.sorted(java.util.Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        cases.add(Arguments.of(EndpointDesign.MEMQ_RD, WriteCompletionMode.DEFAULT));
        cases.add(Arguments.of(EndpointDesign.SEMQ_RD, WriteCompletionMode.DEFAULT));
        for (WriteCompletionMode mode : WriteCompletionMode.values()) {
            cases.add(Arguments.of(EndpointDesign.MEMQ_WR, mode));
        }
        cases.add(Arguments.of(EndpointDesign.SEMQ_WR, WriteCompletionMode.DEFAULT));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void aDeadPeerFailsEveryCallWithNetworkSoon(EndpointDesign design, WriteCompletionMode mode) throws Exception {
        EndpointConfig config = EndpointConfig.defaults(design, 1)
                .withBufferBytes(1024)
                .withBuffersPerPeer(4)
                .withStallTimeout(STALL_TIMEOUT)
                .withWriteCompletionMode(mode);
        TransmissionGroups groups = TransmissionGroups.repartition(2);
        LocalPeerExchange.Group exchange = LocalPeerExchange.group(2, Duration.ofSeconds(20));
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            Future<?> dyingNode = pool.submit(() -> {
                Fabric fabric = Fabrics.open(fabricConfig(1));
                EndpointFactory.open(fabric, exchange.member(1), "failure", config, groups);
                Thread.sleep(100);
                fabric.close(); // dies with its endpoints open: no DEPLETED, no releases, no final words
                return null;
            });
            try (Fabric fabric = Fabrics.open(fabricConfig(0))) {
                NodeEndpoints endpoints = EndpointFactory.open(fabric, exchange.member(0), "failure", config, groups);
                SendEndpoint sender = endpoints.sender(0);
                ReceiveEndpoint receiver = endpoints.receiver(0);
                long startNs = System.nanoTime();
                CompletableFuture<Throwable> sending = CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                int[] toDyingNode = {1};
                                while (true) {
                                    ShuffleBuffer buffer = sender.acquire();
                                    buffer.payloadLength(64);
                                    sender.putData(buffer, toDyingNode, StreamState.MORE_DATA);
                                }
                            } catch (Throwable failure) {
                                return failure;
                            }
                        },
                        pool);
                CompletableFuture<Throwable> receiving = CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                ShuffleBuffer buffer;
                                while ((buffer = receiver.getData()) != null) {
                                    receiver.release(buffer);
                                }
                                return null;
                            } catch (Throwable failure) {
                                return failure;
                            }
                        },
                        pool);
                assertNetwork(sending.get(20, TimeUnit.SECONDS));
                assertNetwork(receiving.get(20, TimeUnit.SECONDS));
                assertThat(Duration.ofNanos(System.nanoTime() - startNs)).isLessThan(STALL_TIMEOUT.dividedBy(3));

                // the failure sticks: every later call rethrows it
                assertThatThrownBy(sender::acquire).satisfies(RcOneSidedFailureTest::assertNetwork);
                assertThatThrownBy(receiver::getData).satisfies(RcOneSidedFailureTest::assertNetwork);
                long closeStartNs = System.nanoTime();
                endpoints.close();
                assertThat(Duration.ofNanos(System.nanoTime() - closeStartNs)).isLessThan(Duration.ofSeconds(5));
            }
            dyingNode.get(20, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    private static FabricConfig fabricConfig(int node) {
        return FabricConfig.of("shm", "node-" + node).withOption("shm.directory", directory.toString());
    }

    private static void assertNetwork(Throwable failure) {
        assertThat(failure).isInstanceOf(FaroException.class);
        assertThat(((FaroException) failure).category()).as("%s", failure).isEqualTo(FaroException.Category.NETWORK);
    }
}
