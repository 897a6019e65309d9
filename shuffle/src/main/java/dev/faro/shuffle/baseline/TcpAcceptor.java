package dev.faro.shuffle.baseline;

import dev.faro.fabric.auth.ChallengeResponse;
import dev.faro.fabric.auth.RefusalLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * A receive endpoint's accept phase: takes one authenticated connection from sending endpoint {@code i} of every
 * node ({@code i}: the receiver's own index), running the {@link TcpHandshake} of every pending connection at once
 * on one non-blocking selector. A connection that fails the handshake, stays silent past
 * {@link TcpHandshake#HANDSHAKE_TIMEOUT}, or comes from a node already connected is closed and counted, with one
 * rate-limited log line that names the peer's address and a reason of our own (never the peer's bytes). At most
 * {@value #MAX_PENDING} connections wait to authenticate at once; a new one evicts the oldest, so a few silent
 * connections cannot keep an honest sender (which answers its challenge at once) out, nor hold the exchange hostage.
 * A local process that floods the port with connections faster than an honest sender's round trip can keep evicting
 * it until the accept phase times out: a denial of service of that exchange (it fails with one line), never a way in.
 *
 * <p>Used by one thread (the opener's accept thread for this endpoint); {@link #abort} may be called from any.
 * Coordination code.
 */
final class TcpAcceptor {

    /** Connections that may be waiting to authenticate at once; a new one beyond evicts the oldest. */
    static final int MAX_PENDING = 16;

    /** The refusal log of every TCP shuffle receive endpoint of this process. */
    static final RefusalLog REFUSALS = RefusalLog.toStandardError("faro: ");

    private static final long MAX_SELECT_MILLIS = 100;

    private final ServerSocketChannel server;
    private final String description;
    private final String shuffleName;
    private final ChallengeResponse proofs;
    private final byte[] token;
    private final int receiverId;
    private final int nodes;
    private final Duration handshakeTimeout;
    private final RefusalLog refusals;
    private final Selector selector;
    private final List<Pending> pending = new ArrayList<>();
    private volatile boolean aborted;
    /** Written by the accepting thread, read by any (tests, diagnostics). */
    private volatile int refused;

    TcpAcceptor(
            ServerSocketChannel server,
            String description,
            String shuffleName,
            ChallengeResponse proofs,
            byte[] token,
            int receiverId,
            int nodes,
            Duration handshakeTimeout,
            RefusalLog refusals)
            throws IOException {
        this.server = server;
        this.description = description;
        this.shuffleName = shuffleName;
        this.proofs = proofs;
        this.token = token;
        this.receiverId = receiverId;
        this.nodes = nodes;
        this.handshakeTimeout = handshakeTimeout;
        this.refusals = refusals;
        this.selector = Selector.open();
    }

    /**
     * Accepts until every node's sender is connected and authenticated, or {@code timeout} passes, or
     * {@link #abort}; returns the connections by source node (null where a node did not connect). Closes every
     * connection still pending and this acceptor's selector before it returns; the caller owns the returned ones.
     */
    SocketChannel[] acceptAll(Duration timeout) throws IOException {
        SocketChannel[] connected = new SocketChannel[nodes];
        int count = 0;
        try {
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (count < nodes && !aborted) {
                long now = System.nanoTime();
                if (now - deadline > 0) {
                    break;
                }
                selector.select(Math.max(1, Math.min(MAX_SELECT_MILLIS, (deadline - now) / 1_000_000)));
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        acceptPending();
                    } else if (key.isReadable()) {
                        count += onReadable((Pending) key.attachment(), connected);
                    }
                }
                expire(System.nanoTime()); // after reading, so an answer that came during a pause of ours counts
            }
            return connected;
        } catch (IOException | RuntimeException e) {
            for (SocketChannel channel : connected) {
                if (channel != null) {
                    channel.close();
                }
            }
            throw e;
        } finally {
            for (Pending left : List.copyOf(pending)) {
                refuse(
                        left,
                        count == nodes
                                ? "every sender of the exchange is connected already"
                                : "the accept phase ended before it authenticated");
            }
            selector.close();
        }
    }

    /** Closes the selector when {@link #acceptAll} never ran; idempotent. */
    void close() throws IOException {
        selector.close();
    }

    /** Makes {@link #acceptAll} return soon (another part of the open failed). Any thread. */
    void abort() {
        aborted = true;
        selector.wakeup();
    }

    /** Connections refused so far (for tests and diagnostics). */
    int refused() {
        return refused;
    }

    private void acceptPending() throws IOException {
        SocketChannel channel;
        while ((channel = server.accept()) != null) {
            Pending connection = new Pending(channel, System.nanoTime() + handshakeTimeout.toNanos());
            if (pending.size() >= MAX_PENDING) {
                refuse(
                        pending.getFirst(),
                        "it was still unauthenticated when " + MAX_PENDING + " newer connections waited");
            }
            pending.add(connection);
            try {
                channel.configureBlocking(false);
                ByteBuffer challenge = TcpHandshake.challenge(connection.challengeNonce);
                channel.write(challenge);
                if (challenge.hasRemaining()) {
                    refuse(connection, "it does not take the challenge");
                    continue;
                }
                channel.register(selector, SelectionKey.OP_READ, connection);
            } catch (IOException e) {
                refuse(connection, "the connection failed during the handshake");
            }
        }
    }

    /** Reads a pending connection's answer; returns 1 when it authenticated (and moved to {@code connected}). */
    private int onReadable(Pending connection, SocketChannel[] connected) {
        int read;
        try {
            read = connection.channel.read(connection.answer);
        } catch (IOException e) {
            refuse(connection, "the connection failed during the handshake");
            return 0;
        }
        if (read < 0) {
            refuse(connection, "it closed the connection without authenticating");
            return 0;
        }
        if (connection.answer.hasRemaining()) {
            return 0;
        }
        ByteBuffer answer = connection.answer.flip();
        int magic = answer.getInt();
        int source = answer.getInt();
        byte[] claimedToken = new byte[TcpHandshake.TOKEN_LENGTH];
        byte[] responseNonce = new byte[ChallengeResponse.NONCE_LENGTH];
        byte[] proof = new byte[ChallengeResponse.PROOF_LENGTH];
        answer.get(claimedToken).get(responseNonce).get(proof);
        int node = source >>> 16;
        byte[] binding = TcpHandshake.binding(shuffleName, token, source, receiverId);
        if (magic != TcpHandshake.MAGIC) {
            refuse(connection, "it does not speak the TCP shuffle handshake");
        } else if (!Arrays.equals(claimedToken, token)) {
            refuse(connection, "it is for another exchange, or an earlier one");
        } else if ((source & 0xffff) != (receiverId & 0xffff) || node >= nodes) {
            refuse(connection, "it claims a sending endpoint that is not part of this exchange");
        } else if (!proofs.verifyResponder(connection.challengeNonce, responseNonce, binding, proof)) {
            refuse(connection, "it does not know the cluster secret");
        } else if (connected[node] != null) {
            refuse(connection, "node " + node + "'s sender is connected already");
        } else {
            ByteBuffer confirm =
                    TcpHandshake.confirm(proofs.challengerProof(connection.challengeNonce, responseNonce, binding));
            try {
                connection.channel.write(confirm);
            } catch (IOException e) {
                refuse(connection, "the connection failed during the handshake");
                return 0;
            }
            if (confirm.hasRemaining()) {
                refuse(connection, "it does not take the confirmation");
                return 0;
            }
            connection.channel.keyFor(selector).cancel();
            pending.remove(connection);
            connected[node] = connection.channel;
            return 1;
        }
        return 0;
    }

    /** Closes connections whose handshake deadline passed. */
    private void expire(long now) {
        for (Pending connection : List.copyOf(pending)) {
            if (now - connection.deadlineNanos > 0) {
                refuse(connection, "it did not authenticate within " + handshakeTimeout.toSeconds() + " s");
            }
        }
    }

    private void refuse(Pending connection, String reason) {
        pending.remove(connection);
        String peer;
        try {
            peer = String.valueOf(connection.channel.getRemoteAddress());
        } catch (IOException e) {
            peer = "a peer that is gone";
        }
        try {
            connection.channel.close();
        } catch (IOException e) {
            // refusing: nothing more to do with it
        }
        refused = refused + 1; // only the accepting thread writes
        refusals.refused(description + ": refused a connection from " + peer + ": " + reason);
    }

    /** One connection waiting to authenticate. */
    private static final class Pending {
        final SocketChannel channel;
        final long deadlineNanos;
        final byte[] challengeNonce = ChallengeResponse.nonce();
        final ByteBuffer answer = ByteBuffer.allocate(TcpHandshake.ANSWER_LENGTH);

        Pending(SocketChannel channel, long deadlineNanos) {
            this.channel = channel;
            this.deadlineNanos = deadlineNanos;
        }
    }
}
