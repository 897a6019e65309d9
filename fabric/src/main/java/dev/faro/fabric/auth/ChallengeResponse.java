package dev.faro.fabric.auth;

import java.util.Objects;

/**
 * The mutual challenge–response that Faro's TCP listeners for cluster traffic run before they act on a byte from a
 * peer (the bench's own socket-stream baseline of {@code faro bench fabric}, a loopback measurement, does not), over a
 * {@link SharedSecret}; the message framing is each protocol's own (JSON frames on the cluster port, fixed binary
 * messages on the TCP shuffle baseline), the proofs are these:
 *
 * <pre>
 *  challenger (the side that accepted)              responder (the side that dialed)
 *      ── Nc (a fresh nonce) ─────────────────────────────►
 *      ◄── Nr (a fresh nonce), responderProof(Nc, Nr, binding)
 *   verifyResponder: constant time; on mismatch refuse and close, nothing else changes
 *      ── challengerProof(Nc, Nr, binding) ────────────────►
 *                                       verifyChallenger: on mismatch refuse and close
 *
 *  responderProof  = HMAC(K, protocol + " responder" ‖ Nc ‖ Nr ‖ binding)
 *  challengerProof = HMAC(K, protocol + " challenger" ‖ Nc ‖ Nr ‖ binding)   (K: the secret; SharedSecret#proof)
 * </pre>
 *
 * The protocol name (with its version, "faro-cluster/1") keeps a proof of one protocol from serving another, the role
 * label a proof of one side from serving the other, the challenger's fresh nonce a recorded answer from being
 * replayed, and the binding (what the connection is for: an exchange, a node) an answer for one purpose from being
 * accepted for another; both sides compute the binding themselves, so a peer that means something else fails the
 * proof. Immutable and thread-safe; coordination code (allocates).
 */
public final class ChallengeResponse {

    /** Bytes of a nonce. */
    public static final int NONCE_LENGTH = SharedSecret.NONCE_LENGTH;
    /** Bytes of a proof. */
    public static final int PROOF_LENGTH = SharedSecret.PROOF_LENGTH;

    private static final byte[] NO_BINDING = new byte[0];

    private final SharedSecret secret;
    private final String protocol;
    private final String responderLabel;
    private final String challengerLabel;

    /**
     * @param protocol the protocol's name and version, e.g. {@code "faro-cluster/1"}; part of every proof
     */
    public ChallengeResponse(SharedSecret secret, String protocol) {
        this.secret = Objects.requireNonNull(secret, "secret is null");
        this.protocol = Objects.requireNonNull(protocol, "protocol is null");
        this.responderLabel = protocol + " responder";
        this.challengerLabel = protocol + " challenger";
    }

    /** A fresh nonce, for either side. */
    public static byte[] nonce() {
        return SharedSecret.nonce();
    }

    /** The responder's proof (the dialing side sends it with its nonce). */
    public byte[] responderProof(byte[] challengeNonce, byte[] responseNonce, byte[] binding) {
        return secret.proof(responderLabel, challengeNonce, responseNonce, bindingOrNone(binding));
    }

    /** The challenger's proof (the accepting side sends it once it verified the responder). */
    public byte[] challengerProof(byte[] challengeNonce, byte[] responseNonce, byte[] binding) {
        return secret.proof(challengerLabel, challengeNonce, responseNonce, bindingOrNone(binding));
    }

    /** Whether {@code received} is the responder's proof for these nonces and this binding (constant time). */
    public boolean verifyResponder(byte[] challengeNonce, byte[] responseNonce, byte[] binding, byte[] received) {
        return SharedSecret.matches(responderProof(challengeNonce, responseNonce, binding), received);
    }

    /** Whether {@code received} is the challenger's proof for these nonces and this binding (constant time). */
    public boolean verifyChallenger(byte[] challengeNonce, byte[] responseNonce, byte[] binding, byte[] received) {
        return SharedSecret.matches(challengerProof(challengeNonce, responseNonce, binding), received);
    }

    private static byte[] bindingOrNone(byte[] binding) {
        return binding == null ? NO_BINDING : binding;
    }

    @Override
    public String toString() {
        return "ChallengeResponse[" + protocol + ", " + secret + "]";
    }
}
