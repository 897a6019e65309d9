package dev.faro.shuffle.baseline;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.auth.ChallengeResponse;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;

/**
 * The first bytes of every TCP shuffle connection: the cluster's {@link ChallengeResponse} (protocol
 * {@value #PROTOCOL}) bound to one exchange, so that a receive endpoint takes data only from a sender that knows the
 * cluster secret and means this very exchange. Fixed-length messages, big-endian:
 *
 * <pre>
 *  sender (responder)                                          receiver (challenger)
 *                          ◄── CHALLENGE  magic "FTH1" (4) | Nc (32)                                 36 B
 *  ANSWER  magic (4) | source endpoint (4) | token (16) | Nr (32) | responderProof (32) ──►          88 B
 *                              checks, in order: magic; token (else "another or an old exchange"); the source is
 *                              sending endpoint i of a node of this shuffle (i: the receiver's own index); the proof
 *                              (else "does not know the cluster secret"); no connection from that node yet;
 *                              on any failure: one rate-limited log line, close, nothing else changes
 *                          ◄── CONFIRM    magic (4) | challengerProof (32)                             36 B
 *  checks the proof (else the shuffle fails: the receiver does not know the secret); then data frames
 *
 *  binding = nameLength (4) | shuffle name (UTF-8) | token (16) | source endpoint (4) | target endpoint (4)
 * </pre>
 *
 * The token is 16 random bytes each receive endpoint draws when it opens and publishes with its port through the
 * (authenticated) peer exchange; with the shuffle name it names the exchange, so a connection meant for another
 * exchange, or for an earlier one of the same name, is refused. A sender writes nothing but its ANSWER before it has
 * checked CONFIRM, so the receiver never takes data from an unproven peer. Coordination code (allocates).
 */
final class TcpHandshake {

    static final String PROTOCOL = "faro-tcp-shuffle/1";
    static final int MAGIC = 0x46544831; // "FTH1"
    static final int TOKEN_LENGTH = 16;
    static final int CHALLENGE_LENGTH = 4 + ChallengeResponse.NONCE_LENGTH;
    static final int ANSWER_LENGTH =
            4 + 4 + TOKEN_LENGTH + ChallengeResponse.NONCE_LENGTH + ChallengeResponse.PROOF_LENGTH;
    static final int CONFIRM_LENGTH = 4 + ChallengeResponse.PROOF_LENGTH;

    /** How long an accepted connection may take to answer the challenge before the receiver closes it. */
    static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(5);

    private static final SecureRandom RANDOM = new SecureRandom();

    private TcpHandshake() {}

    /** A fresh exchange token for one receive endpoint. */
    static byte[] token() {
        byte[] token = new byte[TOKEN_LENGTH];
        RANDOM.nextBytes(token);
        return token;
    }

    /** What a connection is for: both sides compute it themselves, and the proofs cover it. */
    static byte[] binding(String shuffleName, byte[] token, int sourceEndpoint, int targetEndpoint) {
        byte[] name = shuffleName.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + name.length + TOKEN_LENGTH + 8)
                .putInt(name.length)
                .put(name)
                .put(token)
                .putInt(sourceEndpoint)
                .putInt(targetEndpoint)
                .array();
    }

    /** The receiver's first message. */
    static ByteBuffer challenge(byte[] nonce) {
        return ByteBuffer.allocate(CHALLENGE_LENGTH).putInt(MAGIC).put(nonce).flip();
    }

    /** The receiver's last message, once it accepted the sender's answer. */
    static ByteBuffer confirm(byte[] proof) {
        return ByteBuffer.allocate(CONFIRM_LENGTH).putInt(MAGIC).put(proof).flip();
    }

    /**
     * The sender's side, on a freshly connected blocking channel: answers the receiver's challenge and checks its
     * confirmation, waiting at most {@code timeout} for each message.
     *
     * @throws FaroException {@code NETWORK} when the receiver refuses the connection, does not prove the secret, or
     *     stays silent
     */
    static void dial(
            SocketChannel channel,
            ChallengeResponse proofs,
            byte[] binding,
            int sourceEndpoint,
            byte[] token,
            Duration timeout,
            String description)
            throws IOException {
        Socket socket = channel.socket();
        socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
        InputStream in = socket.getInputStream();
        ByteBuffer challenge = read(in, CHALLENGE_LENGTH, description, "its challenge");
        if (challenge.getInt() != MAGIC) {
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    description + ": the peer does not speak the TCP shuffle handshake");
        }
        byte[] challengeNonce = new byte[ChallengeResponse.NONCE_LENGTH];
        challenge.get(challengeNonce);
        byte[] responseNonce = ChallengeResponse.nonce();
        ByteBuffer answer = ByteBuffer.allocate(ANSWER_LENGTH)
                .putInt(MAGIC)
                .putInt(sourceEndpoint)
                .put(token)
                .put(responseNonce)
                .put(proofs.responderProof(challengeNonce, responseNonce, binding))
                .flip();
        while (answer.hasRemaining()) {
            channel.write(answer);
        }
        ByteBuffer confirm = read(
                in,
                CONFIRM_LENGTH,
                description,
                "its confirmation: it refused this sender"
                        + " (is the cluster secret the same on every node? did this node answer later than "
                        + HANDSHAKE_TIMEOUT.toSeconds() + " s?)");
        int magic = confirm.getInt();
        byte[] proof = new byte[ChallengeResponse.PROOF_LENGTH];
        confirm.get(proof);
        if (magic != MAGIC || !proofs.verifyChallenger(challengeNonce, responseNonce, binding, proof)) {
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    description + ": the receiver did not prove the cluster secret; not sending to it");
        }
        socket.setSoTimeout(0);
    }

    private static ByteBuffer read(InputStream in, int length, String description, String what) throws IOException {
        byte[] bytes = new byte[length];
        int done = 0;
        try {
            while (done < length) {
                int read = in.read(bytes, done, length - done);
                if (read < 0) {
                    throw new EOFException();
                }
                done += read;
            }
        } catch (SocketTimeoutException e) {
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    description + ": the receiver did not send " + what + " in time",
                    e);
        } catch (EOFException e) {
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    description + ": the receiver closed the" + " connection instead of sending " + what,
                    e);
        }
        return ByteBuffer.wrap(bytes);
    }
}
