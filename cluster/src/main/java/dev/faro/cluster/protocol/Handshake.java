package dev.faro.cluster.protocol;

import dev.faro.fabric.auth.ChallengeResponse;
import java.io.EOFException;
import java.io.IOException;
import java.util.Base64;

/**
 * Mutual challenge-response authentication with HMAC-SHA256 over the shared {@link ClusterSecret}; the secret itself
 * never crosses the wire, and each side proves it knows it over both nonces, so a recorded session cannot be
 * replayed. The proofs are {@link ChallengeResponse}'s (protocol {@value #PROOF_PROTOCOL}, no binding), the one
 * implementation every Faro TCP listener shares; nonces and proofs travel as base64 strings.
 *
 * <pre>
 *  coordinator (challenger)                            worker (responder)
 *      ── HELLO {protocol, nonce=Nc} ─────────────────────►
 *      ◄── AUTH {nonce=Nw, proof=responderProof(Nc, Nw), pid, host, requestedNode}
 *   verify proof (constant time); on mismatch: REFUSED {reason}, close, no state changed
 *      ── WELCOME {proof=challengerProof(Nc, Nw), node, nodes, fabric...} ─►
 *                                          verify proof; on mismatch: log, close, exit
 * </pre>
 */
public final class Handshake {

    /**
     * The protocol version; both sides must speak the same one (2: the proofs are {@link ChallengeResponse}'s, so a
     * worker of an older build is told so instead of failing the proof).
     */
    public static final int PROTOCOL_VERSION = 2;

    /** The protocol name in the proofs. */
    static final String PROOF_PROTOCOL = "faro-cluster/" + PROTOCOL_VERSION;

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
    public record JoiningWorker(
            long pid, String host, int requestedNode, String workerNonce, String coordinatorNonce) {}

    /**
     * The coordinator's side, up to and including the check of the worker's proof.
     *
     * @throws AuthenticationException when the worker's proof is wrong or missing (REFUSED was sent)
     */
    public static JoiningWorker authenticateWorker(FrameChannel channel, ClusterSecret secret) throws IOException {
        byte[] challenge = ChallengeResponse.nonce();
        String coordinatorNonce = encode(challenge);
        channel.send(
                Frame.of(MessageType.HELLO).put("protocol", PROTOCOL_VERSION).put("nonce", coordinatorNonce));
        Frame auth = channel.receive();
        if (auth.type() != MessageType.AUTH) {
            refuse(channel, "expected AUTH, got " + auth.type());
        }
        if (auth.number("protocol") != PROTOCOL_VERSION) {
            refuse(channel, "protocol version " + auth.number("protocol") + " is not " + PROTOCOL_VERSION);
        }
        String workerNonce = auth.text("nonce");
        byte[] workerNonceBytes = decode(workerNonce);
        if (workerNonceBytes == null
                || !proofs(secret)
                        .verifyResponder(
                                challenge,
                                workerNonceBytes,
                                null,
                                decode(auth.header().path("proof").asText("")))) {
            refuse(channel, "authentication failed: the worker does not know the cluster secret");
        }
        return new JoiningWorker(
                auth.number("pid"),
                auth.text("host"),
                (int) auth.number("requestedNode"),
                workerNonce,
                coordinatorNonce);
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
        byte[] coordinatorNonce = decode(worker.coordinatorNonce());
        byte[] workerNonce = decode(worker.workerNonce());
        if (coordinatorNonce == null || workerNonce == null) {
            throw new IllegalArgumentException("the worker's nonces are not base64");
        }
        return Frame.of(MessageType.WELCOME)
                .put("proof", encode(proofs(secret).challengerProof(coordinatorNonce, workerNonce, null)));
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
            throw new ProtocolException(
                    "coordinator speaks protocol " + hello.number("protocol") + ", this worker " + PROTOCOL_VERSION);
        }
        byte[] coordinatorNonce = decode(hello.text("nonce"));
        if (coordinatorNonce == null) {
            throw new ProtocolException("the HELLO from " + channel.peer() + " carries a nonce that is not base64");
        }
        byte[] workerNonce = ChallengeResponse.nonce();
        ChallengeResponse proofs = proofs(secret);
        channel.send(Frame.of(MessageType.AUTH)
                .put("protocol", PROTOCOL_VERSION)
                .put("nonce", encode(workerNonce))
                .put("proof", encode(proofs.responderProof(coordinatorNonce, workerNonce, null)))
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
        if (!proofs.verifyChallenger(
                coordinatorNonce,
                workerNonce,
                null,
                decode(answer.header().path("proof").asText("")))) {
            throw new AuthenticationException(
                    "the coordinator at " + channel.peer() + " does not know the cluster secret; not joining");
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
        byte[] nonce = ChallengeResponse.nonce();
        proofs(ClusterSecret.of("warm-up")).responderProof(nonce, nonce, null);
        Frame.of(MessageType.AUTH).put("nonce", encode(nonce)).toString();
    }

    private static ChallengeResponse proofs(ClusterSecret secret) {
        return new ChallengeResponse(secret.sharedSecret(), PROOF_PROTOCOL);
    }

    private static String encode(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** The bytes of a base64 string from a peer, or null when it is not base64 (a refusal, not a crash). */
    private static byte[] decode(String text) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
