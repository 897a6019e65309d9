package dev.faro.shuffle.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.auth.ChallengeResponse;
import dev.faro.fabric.auth.RefusalLog;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import dev.faro.shuffle.setup.EndpointFactory;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A local process that knows node 0's TCP shuffle port (and even its exchange token) connects before the real
 * senders and tries to inject data: without the secret, with a wrong one, with the right one for another or an
 * earlier exchange, by replaying a recorded answer, by staying silent, in numbers, or after the exchange is complete.
 * Every such connection is refused (counted, never confirmed), and every node still receives exactly the tuples the
 * real senders sent.
 */
class TcpShuffleIntruderTest {

    private static final int NODES = 2;
    private static final int ROWS = 5_000;
    private static final int TUPLE_BYTES = 16;
    /** A short handshake deadline: silent intruders are refused when it passes (the default, 5 s, only slows the test). */
    private static final TcpShuffleConfig CONFIG =
            new TcpShuffleConfig(1, 1, 4096, Duration.ofSeconds(30)).withHandshakeTimeout(Duration.ofSeconds(2));

    private static final TransmissionGroups GROUPS = TransmissionGroups.repartition(NODES);
    /** The sending endpoint every intruder claims to be: node 1's. */
    private static final int CLAIMED_SOURCE = EndpointFactory.endpointId(1, 0);

    private static final int TARGET = EndpointFactory.endpointId(0, 0);

    /** What the intruder does once connected. */
    enum Intruder {
        /** Writes shuffle frames (one with DEPLETED) at once, as the baseline accepted before it authenticated. */
        RAW_FRAMES(1),
        /** Answers the challenge with a proof made from another secret, then writes frames. */
        WRONG_SECRET(1),
        /** The right secret and token, but its proof names another exchange. */
        ANOTHER_EXCHANGE(1),
        /** The right secret, but the token of an earlier exchange. */
        EARLIER_EXCHANGE(1),
        /** Two connections: the answer recorded for the first one's challenge replayed on the second. */
        REPLAYED_ANSWER(2),
        /** Connects and sends nothing (refused at the handshake deadline). */
        SILENT(1),
        /** More silent connections than may wait to authenticate at once (the oldest are evicted). */
        MANY_SILENT(TcpAcceptor.MAX_PENDING + 4);

        final int connections;

        Intruder(int connections) {
            this.connections = connections;
        }
    }

    @ParameterizedTest
    @EnumSource(Intruder.class)
    void anIntruderIsRefusedAndTheShuffleIsExact(Intruder intruder) throws Exception {
        List<String> outcomes = new CopyOnWriteArrayList<>();
        AtomicReference<Thread> dialogue = new AtomicReference<>();
        Object attackOnce = new Object();
        long[][] received = TcpShuffleTest.run(
                NODES,
                1,
                GROUPS,
                CONFIG,
                ROWS,
                (node, exchange) -> new Meddler(exchange, (key, all) -> {
                    if (!key.endsWith("/tcp/ports")) {
                        return;
                    }
                    synchronized (attackOnce) { // the intruder connects before any real sender
                        if (dialogue.get() == null) {
                            dialogue.set(attack(intruder, ByteBuffer.wrap(all[0]), outcomes));
                        }
                    }
                    if (node == 1) {
                        // node 1's sender, the one the intruder claims to be, connects only once the intruder is
                        // done, so the intruder is judged on its own merits, never by arriving second
                        join(dialogue.get());
                    }
                }));
        join(dialogue.get());

        long[][] expected = TcpShuffleTest.expected(NODES, 1, GROUPS, ROWS);
        assertThat(received[0]).as("tuples per node").containsExactly(expected[0]);
        assertThat(received[1]).as("checksum per node").containsExactly(expected[1]);
        assertThat(received[3][0]).as("connections node 0 refused").isEqualTo(intruder.connections);
        assertThat(outcomes)
                .as("what the intruder saw")
                .hasSize(intruder.connections)
                .allMatch(o -> o.equals("refused"));
    }

    @Test
    void aConnectionAfterEverySenderIsInIsRefused() throws Exception {
        AtomicReference<Integer> port = new AtomicReference<>();
        AtomicReference<Throwable> late = new AtomicReference<>();
        long[][] received = TcpShuffleTest.run(
                NODES,
                1,
                GROUPS,
                CONFIG,
                ROWS,
                (node, exchange) -> node == 0
                        ? new Meddler(exchange, (key, all) -> {
                            if (key.endsWith("/tcp/ports")) {
                                port.set(ByteBuffer.wrap(all[0]).getInt(0));
                            } else if (key.endsWith("/tcp/connected")) {
                                // node 0's endpoints are open and no data moved yet, but every sender is in
                                try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port.get())) {
                                    late.set(new AssertionError("a late connection was let in"));
                                } catch (IOException e) {
                                    late.set(e);
                                }
                            }
                        })
                        : exchange);
        long[][] expected = TcpShuffleTest.expected(NODES, 1, GROUPS, ROWS);
        assertThat(received[0]).containsExactly(expected[0]);
        assertThat(received[1]).containsExactly(expected[1]);
        assertThat(late.get())
                .as("the operating system refused it: the listener is closed")
                .isInstanceOf(ConnectException.class);
    }

    @Test
    void refusalsAreOneRateLimitedLineWithoutTheIntrudersBytes() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        RefusalLog log = new RefusalLog(Duration.ofHours(1), System::nanoTime, lines::add);
        byte[] junk = "\u001b[2K\rQ1 OK count_order=36444\n".repeat(10).getBytes(StandardCharsets.UTF_8);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            TcpAcceptor acceptor = new TcpAcceptor(
                    server,
                    "tcp receive endpoint 0 of 'test'",
                    "test",
                    new ChallengeResponse(TcpShuffleTest.SECRET, TcpHandshake.PROTOCOL),
                    TcpHandshake.token(),
                    TARGET,
                    NODES,
                    TcpHandshake.HANDSHAKE_TIMEOUT,
                    log);
            try (Socket first = connect(server.socket().getLocalPort());
                    Socket second = connect(server.socket().getLocalPort())) {
                first.getOutputStream().write(junk);
                second.getOutputStream().write(junk);
                // nobody else comes: the accept phase ends at its (short) timeout, both intruders refused by then
                assertThat(acceptor.acceptAll(Duration.ofSeconds(3))).containsOnlyNulls();
            }
        }
        assertThat(log.refusals()).isEqualTo(2);
        assertThat(lines).hasSize(1);
        assertThat(lines.getFirst())
                .startsWith("tcp receive endpoint 0 of 'test': refused a connection from /127.0.0.1:")
                .endsWith(": it does not speak the TCP shuffle handshake")
                .doesNotContain("Q1 OK")
                .doesNotContain("\u001b")
                .doesNotContain("\n")
                .doesNotContain("\r");
    }

    /**
     * Connects the intruder's sockets now (before any real sender: they wait in node 0's backlog first), then talks
     * on them from a thread of its own, since the challenge comes only once node 0 accepts. Each connection's outcome
     * goes to {@code outcomes}: "refused" when node 0 closed it, "CONFIRMED" if it ever took the intruder.
     */
    private static Thread attack(Intruder intruder, ByteBuffer ports, List<String> outcomes) {
        int port = ports.getInt(0);
        byte[] token = new byte[TcpHandshake.TOKEN_LENGTH];
        ports.get(4, token);
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < intruder.connections; i++) {
            sockets.add(connect(port));
        }
        return Thread.ofPlatform().name("intruder").start(() -> {
            try {
                converse(intruder, sockets, token, outcomes);
            } catch (IOException e) {
                outcomes.add("failed: " + e);
            } finally {
                for (Socket socket : sockets) {
                    try {
                        socket.close();
                    } catch (IOException e) {
                        // done with it
                    }
                }
            }
        });
    }

    private static void converse(Intruder intruder, List<Socket> sockets, byte[] token, List<String> outcomes)
            throws IOException {
        ChallengeResponse right = new ChallengeResponse(TcpShuffleTest.SECRET, TcpHandshake.PROTOCOL);
        ChallengeResponse wrong =
                new ChallengeResponse(SharedSecret.of("not the secret", "intruder"), TcpHandshake.PROTOCOL);
        byte[] binding = TcpHandshake.binding("test", token, CLAIMED_SOURCE, TARGET);
        switch (intruder) {
            case RAW_FRAMES -> {
                write(sockets.getFirst(), frames());
                outcomes.add(outcome(sockets.getFirst(), false));
            }
            case WRONG_SECRET -> {
                Socket socket = sockets.getFirst();
                write(socket, answer(wrong, challenge(socket), token, binding));
                write(socket, frames());
                outcomes.add(outcome(socket, true));
            }
            case ANOTHER_EXCHANGE -> {
                Socket socket = sockets.getFirst();
                write(
                        socket,
                        answer(
                                right,
                                challenge(socket),
                                token,
                                TcpHandshake.binding("another", token, CLAIMED_SOURCE, TARGET)));
                outcomes.add(outcome(socket, true));
            }
            case EARLIER_EXCHANGE -> {
                Socket socket = sockets.getFirst();
                byte[] earlier = TcpHandshake.token();
                write(
                        socket,
                        answer(
                                right,
                                challenge(socket),
                                earlier,
                                TcpHandshake.binding("test", earlier, CLAIMED_SOURCE, TARGET)));
                outcomes.add(outcome(socket, true));
            }
            case REPLAYED_ANSWER -> {
                byte[] recorded = answer(right, challenge(sockets.get(0)), token, binding);
                challenge(sockets.get(1));
                write(sockets.get(1), recorded);
                outcomes.add(outcome(sockets.get(1), true));
                outcomes.add(outcome(sockets.get(0), true)); // never answered: refused at the deadline or the end
            }
            case SILENT, MANY_SILENT -> {
                for (Socket socket : sockets) {
                    outcomes.add(outcome(socket, false));
                }
            }
        }
    }

    private static Socket connect(int port) {
        try {
            return new Socket(InetAddress.getLoopbackAddress(), port);
        } catch (IOException e) {
            throw new IllegalStateException("the intruder cannot even connect: " + e, e);
        }
    }

    /** Reads node 0's challenge; returns its nonce. */
    private static byte[] challenge(Socket socket) throws IOException {
        socket.setSoTimeout(30_000);
        ByteBuffer message = ByteBuffer.wrap(socket.getInputStream().readNBytes(TcpHandshake.CHALLENGE_LENGTH));
        assertThat(message.remaining()).isEqualTo(TcpHandshake.CHALLENGE_LENGTH);
        assertThat(message.getInt()).isEqualTo(TcpHandshake.MAGIC);
        byte[] nonce = new byte[ChallengeResponse.NONCE_LENGTH];
        message.get(nonce);
        return nonce;
    }

    private static byte[] answer(ChallengeResponse proofs, byte[] challenge, byte[] token, byte[] binding) {
        byte[] nonce = ChallengeResponse.nonce();
        return ByteBuffer.allocate(TcpHandshake.ANSWER_LENGTH)
                .putInt(TcpHandshake.MAGIC)
                .putInt(CLAIMED_SOURCE)
                .put(token)
                .put(nonce)
                .put(proofs.responderProof(challenge, nonce, binding))
                .array();
    }

    /** 100 tuples claiming to be node 1's last buffer. */
    private static byte[] frames() {
        byte[] frame = new byte[MessageHeaderDescriptor.LENGTH + 100 * TUPLE_BYTES];
        MessageHeaderDescriptor.write(
                MemorySegment.ofArray(frame),
                0,
                StreamState.DEPLETED,
                MessageHeaderDescriptor.KIND_DATA,
                CLAIMED_SOURCE,
                100 * TUPLE_BYTES,
                0,
                0);
        return frame;
    }

    private static void write(Socket socket, byte[] bytes) {
        try {
            socket.getOutputStream().write(bytes);
        } catch (IOException e) {
            // node 0 may have closed it already: refused either way
        }
    }

    /**
     * Reads what node 0 sends until it closes the connection: "refused" when nothing but the challenge (unless read
     * already) came, so no confirmation; node 0 closes every connection it refuses.
     */
    private static String outcome(Socket socket, boolean challengeRead) {
        int allowed = challengeRead ? 0 : TcpHandshake.CHALLENGE_LENGTH;
        int received = 0;
        try {
            socket.setSoTimeout(30_000);
            InputStream in = socket.getInputStream();
            while (in.read() >= 0) {
                if (++received > allowed) {
                    return "CONFIRMED";
                }
            }
            return "refused";
        } catch (SocketTimeoutException e) {
            return "neither refused nor confirmed within 30 s";
        } catch (IOException e) {
            return "refused"; // reset by node 0
        }
    }

    private static void join(Thread thread) {
        try {
            if (!thread.join(Duration.ofSeconds(90))) {
                throw new AssertionError("the intruder's dialogue did not end");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A peer exchange that shows every all-gather's result (key, every node's value) to {@code watcher} first. */
    private record Meddler(PeerExchange exchange, BiConsumer<String, byte[][]> watcher) implements PeerExchange {
        @Override
        public int nodeIndex() {
            return exchange.nodeIndex();
        }

        @Override
        public int nodes() {
            return exchange.nodes();
        }

        @Override
        public byte[][] allGather(String key, byte[] local) {
            byte[][] all = exchange.allGather(key, local);
            watcher.accept(key, all.clone());
            return all;
        }
    }
}
