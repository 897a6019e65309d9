package dev.faro.shuffle.endpoint.twosided;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A UD receiver that closes right after its stream ended must not take its FINAL credit writes down with it: each
 * sender's close waits for its FINAL, and closing a queue pair discards the writes its NIC has not carried out yet.
 * On {@code net} between namespaces this showed up, on a busy host, as "node N did not confirm the end of the stream
 * within PT30S (messages lost?)" with no datagram lost (the kernels' UDP counters in and out agreed). Here a fake NIC
 * ({@link HeldWritesFabric}) holds the FINAL back until the credit writer polls for its completion, so the race is
 * lost every time unless the receiver waits for that completion before it closes.
 */
class UdTwoSidedReceiveEndpointCloseTest {

    private Path directory;

    @BeforeEach
    void createDirectory() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-ud-close-test");
    }

    @AfterEach
    void removeDirectory() throws IOException {
        try (Stream<Path> left = Files.list(directory)) {
            assertThat(left.toList()).as("shared files left behind").isEmpty();
        }
        Files.delete(directory);
    }

    @Test
    void closeWaitsForTheFinalCreditWritesSoTheSendersSeeTheEndOfTheStream() {
        EndpointConfig config = EndpointConfig.defaults(EndpointDesign.SESQ_SR, 1)
                .withBufferBytes(1024)
                .withBuffersPerPeer(4)
                .withStallTimeout(Duration.ofSeconds(5));
        try (Fabric shm =
                Fabrics.open(FabricConfig.of("shm", "node-0").withOption("shm.directory", directory.toString()))) {
            HeldWritesFabric fabric = new HeldWritesFabric(shm);
            try (NodeEndpoints endpoints = EndpointFactory.open(
                    fabric,
                    LocalPeerExchange.group(1, Duration.ofSeconds(20)).member(0),
                    "close-test",
                    config,
                    TransmissionGroups.repartition(1))) {
                SendEndpoint sender = endpoints.sender(0);
                ReceiveEndpoint receiver = endpoints.receiver(0);
                ShuffleBuffer buffer = sender.acquire();
                buffer.payload().set(ValueLayout.JAVA_LONG, 0, 42);
                buffer.payloadLength(8);
                sender.putData(buffer, new int[] {0}, StreamState.DEPLETED); // one DATA message, then the END

                fabric.hold(true); // the NIC is busy: credit writes wait until their completions are polled
                ShuffleBuffer received = receiver.getData();
                assertThat(received.payload().get(ValueLayout.JAVA_LONG, 0)).isEqualTo(42);
                receiver.release(received);
                assertThat(receiver.getData()).as("the end of the stream").isNull();
                assertThat(fabric.heldWrites())
                        .as("the FINAL credit write, not carried out yet")
                        .isPositive();

                receiver.close();
                sender.close(); // waits for the FINAL credit: a NETWORK error if the receiver's close discarded it
                assertThat(fabric.heldWrites()).isZero();
            }
        }
    }
}
