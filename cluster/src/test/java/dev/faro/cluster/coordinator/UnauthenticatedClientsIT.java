package dev.faro.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.worker.TaskHandlers;
import dev.faro.cluster.worker.WorkerMain;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that never prove the secret, on the coordinator's port: their text never reaches the operator's terminal
 * raw and floods of them cost one log line; a silent one is closed after the handshake deadline; and a crowd of them
 * neither grows past the cap nor keeps a real worker out. The coordinator's log (standard error) is captured.
 */
class UnauthenticatedClientsIT {

    private static final byte[] MAGIC = "FRC1".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path shmDirectory;

    private final ClusterSecret secret = ClusterSecret.generate();
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream originalErr;
    private Coordinator coordinator;

    @BeforeEach
    void start() {
        originalErr = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        coordinator = Coordinator.listen(
                ClusterConfig.local(1).withProviderOption("shm.directory", shmDirectory.toString()), secret);
    }

    @AfterEach
    void stop() {
        coordinator.close();
        System.setErr(originalErr);
        System.err.print(log());
    }

    private synchronized String log() {
        return captured.toString(StandardCharsets.UTF_8);
    }

    @Test
    void junkWithEscapesAndNewlinesMakesAtMostOneSanitisedLine() throws Exception {
        String forged = "\u001b[2J\u001b[31mQ1 OK\nQ3 OK\r\n\u0007";
        for (int i = 0; i < 10; i++) {
            try (Socket socket = connect()) {
                // a well-formed frame whose "type" is the forged text, then raw junk
                byte[] header = ("{\"type\":\""
                                + Json.MAPPER.writeValueAsString(forged).replace("\"", "") + "\"}")
                        .getBytes(StandardCharsets.UTF_8);
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                out.write(MAGIC);
                out.writeInt(header.length);
                out.writeInt(0);
                out.write(header);
                out.write(forged.getBytes(StandardCharsets.UTF_8));
                out.flush();
                drainUntilClosed(socket);
            }
        }
        try (Socket socket = connect()) {
            socket.getOutputStream().write(forged.getBytes(StandardCharsets.UTF_8));
            drainUntilClosed(socket);
        }

        String log = log();
        List<String> lines =
                Arrays.stream(log.split("\n")).filter(line -> !line.isBlank()).toList();
        assertThat(lines).as(log).hasSizeLessThanOrEqualTo(1);
        assertThat(lines).allSatisfy(line -> assertThat(line).startsWith("faro coordinator: "));
        assertThat(log).doesNotContain("\u001b").doesNotContain("\u0007").doesNotContain("\r");
        assertThat(lines).noneMatch(line -> line.startsWith("Q1 OK") || line.startsWith("Q3 OK"));
    }

    @Test
    void aSilentConnectionIsClosedAfterTheHandshakeDeadline() throws Exception {
        try (Socket socket = connect()) {
            socket.setSoTimeout(
                    (int) WorkerAdmission.HANDSHAKE_DEADLINE.multipliedBy(6).toMillis());
            byte[] hello = drainUntilClosed(socket);
            assertThat(new String(hello, 0, 4, StandardCharsets.US_ASCII))
                    .as("the HELLO before the close")
                    .isEqualTo("FRC1");
        }
    }

    @Test
    void aCrowdOfStrangersIsCappedAndARealWorkerStillJoins() throws Exception {
        int crowd = WorkerAdmission.MAX_UNAUTHENTICATED + 24;
        List<Socket> strangers = new ArrayList<>();
        try {
            for (int i = 0; i < crowd; i++) {
                strangers.add(connect());
            }
            int greeted = 0;
            int turnedAway = 0;
            for (Socket stranger : strangers) {
                stranger.setSoTimeout(30_000);
                int first = stranger.getInputStream().read();
                if (first < 0) {
                    turnedAway++;
                } else {
                    greeted++;
                }
            }
            assertThat(greeted)
                    .as("strangers greeted with HELLO")
                    .isLessThanOrEqualTo(WorkerAdmission.MAX_UNAUTHENTICATED);
            assertThat(turnedAway)
                    .as("strangers closed at once")
                    .isGreaterThanOrEqualTo(crowd - WorkerAdmission.MAX_UNAUTHENTICATED);

            CompletableFuture<Integer> worker = new CompletableFuture<>();
            Thread.ofPlatform()
                    .daemon()
                    .name("in-jvm-worker")
                    .start(() -> worker.complete(
                            WorkerMain.serve(coordinator.joinAddress(), secret, -1, TaskHandlers.load())));
            coordinator.awaitWorkers(Duration.ofSeconds(60));
            assertThat(coordinator.runOnAll("echo", Json.object(), Duration.ofSeconds(30)))
                    .hasSize(1);
        } finally {
            for (Socket stranger : strangers) {
                stranger.close();
            }
        }
    }

    private Socket connect() throws Exception {
        Socket socket = new Socket();
        InetSocketAddress address = coordinator.joinAddress();
        socket.connect(address, 10_000);
        socket.setSoTimeout(60_000);
        return socket;
    }

    /** Reads until the coordinator closes the connection; returns what it sent. */
    private static byte[] drainUntilClosed(Socket socket) throws Exception {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[1024];
        try {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                received.write(buffer, 0, read);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the coordinator did not close the connection", e);
        } catch (java.net.SocketException reset) {
            // closed with unread bytes: a reset is a close too
        }
        return received.toByteArray();
    }
}
