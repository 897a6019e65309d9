package dev.faro.fabric.net;

import static dev.faro.fabric.FabricTesting.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.TestPayloads;
import dev.faro.fabric.WorkRequest;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The bootstrap service: named blobs published and fetched by nodes that know the secret, and nobody else. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class NetBootstrapTest {

    private static final String SECRET = "bootstrap-test-secret";
    private static final Duration WAIT_FOR_PEER = Duration.ofSeconds(10);

    @Test
    void nodesExchangeAddressesAndKeysThroughTheServerAndThenTalk() throws Exception {
        try (NetBootstrapServer server = NetBootstrapServer.start(SECRET);
                Fabric a = Fabrics.open(FabricConfig.of("net", "a").withOption("net.secret", SECRET));
                Fabric b = Fabrics.open(FabricConfig.of("net", "b").withOption("net.secret", SECRET))) {
            assertThat(server.address().getAddress().isLoopbackAddress())
                    .as("binds to loopback")
                    .isTrue();
            CompletableFuture<Void> nodeB = CompletableFuture.runAsync(() -> {
                try (NetBootstrapClient bootstrap =
                        NetBootstrapClient.connect(server.address(), SECRET, WAIT_FOR_PEER)) {
                    CompletionQueue completionQueue = b.createCompletionQueue(8);
                    RcQueuePair queuePair = b.createRcQueuePair(QueuePairConfig.of(completionQueue, 4, 4));
                    MemoryRegion region = b.register(4096, EnumSet.of(Access.REMOTE_WRITE));
                    bootstrap.publish("b/rc", queuePair.address().toBytes());
                    queuePair.connect(b.importAddress(bootstrap.fetch("a/rc", WAIT_FOR_PEER)));
                    // the key last: a WRITE that reached the queue pair before its connect would fail
                    bootstrap.publish("b/region", region.remoteKey().toBytes());
                    bootstrap.fetch("a/done", WAIT_FOR_PEER);
                    assertThat(TestPayloads.mismatch(region.segment(), 0, 4096, 5))
                            .isEqualTo(-1);
                }
            });
            try (NetBootstrapClient bootstrap = NetBootstrapClient.connect(server.address(), SECRET, WAIT_FOR_PEER)) {
                CompletionQueue completionQueue = a.createCompletionQueue(8);
                RcQueuePair queuePair = a.createRcQueuePair(QueuePairConfig.of(completionQueue, 4, 4));
                bootstrap.publish("a/rc", queuePair.address().toBytes());
                queuePair.connect(a.importAddress(bootstrap.fetch("b/rc", WAIT_FOR_PEER)));
                RemoteKey key = a.importRemoteKey(bootstrap.fetch("b/region", WAIT_FOR_PEER));
                MemoryRegion source = a.register(4096, NO_RIGHTS);
                TestPayloads.fill(source.segment(), 0, 4096, 5);
                queuePair.postSend(new WorkRequest()
                        .requestId(1)
                        .opcode(Opcode.WRITE)
                        .local(source, 0, 4096)
                        .remote(key, 0));
                assertSuccess(
                        awaitCompletion(completionQueue, "WRITE to the node found through bootstrap"), 1, Opcode.WRITE);
                bootstrap.publish("a/done", new byte[] {1});
            }
            nodeB.get(30, TimeUnit.SECONDS);
            assertThat(server.names()).containsExactlyInAnyOrder("a/rc", "b/rc", "b/region", "a/done");
        }
    }

    @Test
    void aFetchWaitsForThePublishAndTimesOutWhenNothingComes() throws Exception {
        try (NetBootstrapServer server = NetBootstrapServer.start(SECRET);
                NetBootstrapClient first = NetBootstrapClient.connect(server.address(), SECRET, WAIT_FOR_PEER);
                NetBootstrapClient second = NetBootstrapClient.connect(server.address(), SECRET, WAIT_FOR_PEER)) {
            CompletableFuture<byte[]> waiting = CompletableFuture.supplyAsync(() -> first.fetch("late", WAIT));
            second.publish("late", new byte[] {4, 2});
            assertThat(waiting.get(20, TimeUnit.SECONDS)).containsExactly(4, 2);
            assertFaroException(
                    FaroException.Category.TIMEOUT,
                    "fetch of a name nobody publishes",
                    () -> first.fetch("never", Duration.ofMillis(100)));
            second.publish("late", new byte[] {4, 2}); // the same bytes again: a no-op
            assertFaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "publish other bytes under a taken name",
                    () -> second.publish("late", new byte[] {9}));
            assertThat(first.fetch("late", WAIT)).containsExactly(4, 2);
        }
    }

    @Test
    void aClientWithoutTheSecretIsRefusedWithALogLineAndChangesNothing() {
        try (LogCapture log = new LogCapture();
                NetBootstrapServer server = NetBootstrapServer.start(SECRET);
                NetBootstrapClient honest = NetBootstrapClient.connect(server.address(), SECRET, WAIT_FOR_PEER)) {
            honest.publish("node-1", new byte[] {1});
            FaroException refused = assertFaroException(
                    FaroException.Category.NETWORK,
                    "a client with another secret",
                    () -> NetBootstrapClient.connect(server.address(), "guess", WAIT_FOR_PEER)
                            .publish("node-1", new byte[] {66}));
            assertThat(refused.getMessage()).contains("refused this client");
            awaitCondition(
                    () -> log.lines().stream()
                            .anyMatch(line -> line.contains("bootstrap server")
                                    && line.contains("refused client")
                                    && line.contains("did not prove the shared secret")),
                    "the server logs the refusal: " + log.lines());
            assertThat(server.names()).isEqualTo(Set.of("node-1"));
            assertThat(honest.fetch("node-1", WAIT)).containsExactly(1);
        }
    }
}
