package dev.faro.cluster.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The HMAC challenge-response over a loopback socket: both directions of proof, and the secret never on the wire. */
class HandshakeTest {

    private record Outcome(Handshake.JoiningWorker worker, Throwable failure) {}

    @Test
    void matchingSecretsAdmitTheWorkerAndTheWorkerVerifiesTheCoordinator() throws Exception {
        ClusterSecret secret = ClusterSecret.generate();
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Outcome> coordinator = coordinatorSide(server, secret, true);
            try (FrameChannel worker = new FrameChannel(new Socket(server.getInetAddress(), server.getLocalPort()))) {
                Frame welcome = Handshake.join(worker, secret, 42, "host-a", 3);
                assertThat(welcome.number("node")).isEqualTo(7);
            }
            Outcome outcome = coordinator.get(30, TimeUnit.SECONDS);
            assertThat(outcome.worker().pid()).isEqualTo(42);
            assertThat(outcome.worker().host()).isEqualTo("host-a");
            assertThat(outcome.worker().requestedNode()).isEqualTo(3);
        }
    }

    @Test
    void aWrongWorkerSecretIsRefusedOnBothSides() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Outcome> coordinator = coordinatorSide(server, ClusterSecret.of("right"), true);
            try (FrameChannel worker = new FrameChannel(new Socket(server.getInetAddress(), server.getLocalPort()))) {
                assertThatThrownBy(() -> Handshake.join(worker, ClusterSecret.of("wrong"), 1, "h", -1))
                        .isInstanceOf(AuthenticationException.class)
                        .hasMessageContaining("refused this worker")
                        .hasMessageContaining("does not know the cluster secret");
            }
            assertThat(coordinator.get(30, TimeUnit.SECONDS).failure()).isInstanceOf(AuthenticationException.class);
        }
    }

    @Test
    void aCoordinatorThatDoesNotKnowTheSecretIsNotJoined() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // an impostor that skips the check and answers WELCOME with a proof made from another secret
            CompletableFuture<Outcome> impostor = CompletableFuture.supplyAsync(() -> {
                try (FrameChannel channel = new FrameChannel(server.accept())) {
                    ClusterSecret other = ClusterSecret.of("other");
                    channel.send(Frame.of(MessageType.HELLO)
                            .put("protocol", Handshake.PROTOCOL_VERSION)
                            .put("nonce", "bm9uY2U="));
                    Frame auth = channel.receive();
                    channel.send(Handshake.welcome(
                                    other, new Handshake.JoiningWorker(1, "h", -1, auth.text("nonce"), "bm9uY2U="))
                            .put("node", 0));
                    return new Outcome(null, null);
                } catch (Exception e) {
                    return new Outcome(null, e);
                }
            });
            try (FrameChannel worker = new FrameChannel(new Socket(server.getInetAddress(), server.getLocalPort()))) {
                assertThatThrownBy(() -> Handshake.join(worker, ClusterSecret.of("real"), 1, "h", -1))
                        .isInstanceOf(AuthenticationException.class)
                        .hasMessageContaining("does not know the cluster secret; not joining");
            }
            assertThat(impostor.get(30, TimeUnit.SECONDS).failure()).isNull();
        }
    }

    @Test
    void aNonceOrProofThatIsNotBase64IsRefusedNotACrash() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Outcome> coordinator = coordinatorSide(server, ClusterSecret.of("right"), true);
            try (FrameChannel worker = new FrameChannel(new Socket(server.getInetAddress(), server.getLocalPort()))) {
                worker.receive();
                worker.send(Frame.of(MessageType.AUTH)
                        .put("protocol", Handshake.PROTOCOL_VERSION)
                        .put("nonce", "*not base64*")
                        .put("proof", "%%")
                        .put("pid", 1)
                        .put("host", "h")
                        .put("requestedNode", -1));
                assertThat(worker.receive().type()).isEqualTo(MessageType.REFUSED);
            }
            assertThat(coordinator.get(30, TimeUnit.SECONDS).failure())
                    .isInstanceOf(AuthenticationException.class)
                    .hasMessageContaining("does not know the cluster secret");
        }
    }

    @Test
    void theSecretNeverAppearsInItsStringForm() {
        assertThat(ClusterSecret.of("s3cret").toString()).doesNotContain("s3cret");
    }

    private static CompletableFuture<Outcome> coordinatorSide(
            ServerSocket server, ClusterSecret secret, boolean welcome) {
        return CompletableFuture.supplyAsync(() -> {
            try (FrameChannel channel = new FrameChannel(server.accept())) {
                Handshake.JoiningWorker worker = Handshake.authenticateWorker(channel, secret);
                if (welcome) {
                    channel.send(Handshake.welcome(secret, worker).put("node", 7));
                }
                return new Outcome(worker, null);
            } catch (Exception e) {
                return new Outcome(null, e);
            }
        });
    }
}
