package dev.faro.cluster.protocol;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Mutual challenge-response authentication with HMAC-SHA256 over the shared {@link ClusterSecret}; the secret itself
 * never crosses the wire, and each side proves it knows it over both nonces, so a recorded session cannot be
 * replayed.
 *
 * <pre>
 *  coordinator                                         worker
 *      ── HELLO {protocol, nonce=Nc} ─────────────────────►
 *      ◄── AUTH {nonce=Nw, proof=HMAC(s, "worker|Nc|Nw"), pid, host, requestedNode}
 *   verify proof (constant time); on mismatch: REFUSED {reason}, close, no state changed
 *      ── WELCOME {proof=HMAC(s, "coordinator|Nw|Nc"), node, nodes, fabric...} ─►
 *                                          verify proof; on mismatch: log, close, exit
 * </pre>
 */
public final class Handshake {

    /** The protocol version; both sides must speak the same one. */
    public static final int PROTOCOL_VERSION = 1;

    private static final int NONCE_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private Handshake() {}

    /**
     * The coordinator closed the connection during the handshake, before WELCOME or REFUSED: it turns away
     * connections beyond its cap of unauthenticated ones and closes those that did not finish the handshake within
     * its deadline (a worker JVM starting on a loaded host can be that slow), so a worker may try again shortly.
     */
    public static final class TurnedAwayException extends EOFException {
        public TurnedAwayException(String message) {
            super(message);
        }
    }

    /** What an authenticated worker told the coordinator about itself. */
    public record JoiningWorker(long pid, String host, int requestedNode, String workerNonce, String coordinatorNonce) {}

    /**
     * The coordinator's side, up to and including the check of the worker's proof.
     *
     * @throws AuthenticationException when the worker's proof is wrong or missing (REFUSED was sent)
     */
    public static JoiningWorker authenticateWorker(FrameChannel channel, ClusterSecret secret) throws IOException {
        String coordinatorNonce = nonce();
        channel.send(Frame.of(MessageType.HELLO).put("protocol", PROTOCOL_VERSION).put("nonce", coordinatorNonce));
        Frame auth = channel.receive();
        if (auth.type() != MessageType.AUTH) {
            refuse(channel, "expected AUTH, got " + auth.type());
        }
        if (auth.number("protocol") != PROTOCOL_VERSION) {
            refuse(channel, "protocol version " + auth.number("protocol") + " is not " + PROTOCOL_VERSION);
        }
        String workerNonce = auth.text("nonce");
        String proof = auth.header().path("proof").asText("");
        String expected = proof(secret, "worker", coordinatorNonce, workerNonce);
        if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                proof.getBytes(StandardCharsets.US_ASCII))) {
            refuse(channel, "authentication failed: the worker does not know the cluster secret");
        }
        return new JoiningWorker(auth.number("pid"), auth.text("host"), (int) auth.number("requestedNode"),
                workerNonce, coordinatorNonce);
    }

    /** Sends REFUSED with {@code reason} and throws it as an {@link AuthenticationException}. */
    public static void refuse(FrameChannel channel, String reason) throws IOException {
        try {
            channel.send(Frame.of(MessageType.REFUSED).put("reason", reason));
        } catch (IOException ignored) {
            // the refusal is best effort; the exception below carries the reason
        }
        throw new AuthenticationException(reason);
    }

    /** A WELCOME frame carrying the coordinator's proof for {@code worker}; the caller adds the session fields. */
    public static Frame welcome(ClusterSecret secret, JoiningWorker worker) {
        return Frame.of(MessageType.WELCOME)
                .put("proof", proof(secret, "coordinator", worker.workerNonce(), worker.coordinatorNonce()));
    }

    /**
     * The worker's side: answers HELLO and returns the coordinator's verified WELCOME.
     *
     * @throws AuthenticationException when the coordinator refused us or could not prove it knows the secret
     */
    public static Frame join(FrameChannel channel, ClusterSecret secret, long pid, String host, int requestedNode)
            throws IOException {
        Frame hello = receiveDuringHandshake(channel, "HELLO");
        if (hello.type() != MessageType.HELLO) {
            throw new ProtocolException("expected HELLO from " + channel.peer() + ", got " + hello.type());
        }
        if (hello.number("protocol") != PROTOCOL_VERSION) {
            throw new ProtocolException("coordinator speaks protocol " + hello.number("protocol") + ", this worker "
                    + PROTOCOL_VERSION);
        }
        String coordinatorNonce = hello.text("nonce");
        String workerNonce = nonce();
        channel.send(Frame.of(MessageType.AUTH)
                .put("protocol", PROTOCOL_VERSION)
                .put("nonce", workerNonce)
                .put("proof", proof(secret, "worker", coordinatorNonce, workerNonce))
                .put("pid", pid)
                .put("host", host)
                .put("requestedNode", requestedNode));
        Frame answer = receiveDuringHandshake(channel, "WELCOME");
        if (answer.type() == MessageType.REFUSED) {
            throw new AuthenticationException("the coordinator at " + channel.peer() + " refused this worker: "
                    + answer.header().path("reason").asText("no reason given"));
        }
        if (answer.type() != MessageType.WELCOME) {
            throw new ProtocolException("expected WELCOME from " + channel.peer() + ", got " + answer.type());
        }
        String expected = proof(secret, "coordinator", workerNonce, coordinatorNonce);
        String proof = answer.header().path("proof").asText("");
        if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                proof.getBytes(StandardCharsets.US_ASCII))) {
            throw new AuthenticationException("the coordinator at " + channel.peer()
                    + " does not know the cluster secret; not joining");
        }
        return answer;
    }

    private static Frame receiveDuringHandshake(FrameChannel channel, String expected) throws IOException {
        try {
            return channel.receive();
        } catch (EOFException e) {
            throw new TurnedAwayException("the coordinator at " + channel.peer() + " closed the connection before its "
                    + expected + " (too many unauthenticated connections there, or this side was slower than its"
                    + " handshake deadline)");
        }
    }

    /**
     * Loads and initialises what the worker's side of the handshake uses (HMAC, the random source, JSON), so that a
     * freshly started JVM answers HELLO quickly once it is connected: the coordinator gives a connection only a few
     * seconds to authenticate.
     */
    public static void warmUp() {
        proof(ClusterSecret.of("warm-up"), "worker", nonce(), nonce());
        Frame.of(MessageType.AUTH).put("nonce", nonce()).toString();
    }

    static String proof(ClusterSecret secret, String role, String firstNonce, String secondNonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.key(), "HmacSHA256"));
            byte[] message = ("faro-cluster-" + PROTOCOL_VERSION + "|" + role + "|" + firstNonce + "|" + secondNonce)
                    .getBytes(StandardCharsets.US_ASCII);
            return Base64.getEncoder().encodeToString(mac.doFinal(message));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JDK", e);
        }
    }

    private static String nonce() {
        byte[] bytes = new byte[NONCE_BYTES];
        RANDOM.nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }
}
