package dev.faro.fabric.auth;

import dev.faro.fabric.FaroException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A secret every node of a cluster shares, and the HMAC-SHA256 proofs built on it: the challenge–response of the
 * TCP listeners Faro opens for cluster traffic ({@link ChallengeResponse}: the cluster port, the TCP shuffle baseline, the {@code net}
 * provider's connection handshake) and the {@code net} provider's per-datagram tag. The secret
 * itself never travels; only proofs over fresh nonces do, each bound to a label so a proof for one role or protocol
 * cannot be replayed as another's.
 *
 * <p>Immutable and thread-safe; {@link Mac} instances it hands out are not, and belong to one thread.
 * {@link #toString()} names where the secret came from, never the secret.
 */
public final class SharedSecret {

    public static final String ALGORITHM = "HmacSHA256";
    /** Bytes of a proof (an HMAC-SHA256). */
    public static final int PROOF_LENGTH = 32;
    /** Bytes of a nonce. */
    public static final int NONCE_LENGTH = 32;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final SharedSecret PER_PROCESS = generate();

    private final SecretKeySpec key;
    private final String origin;

    private SharedSecret(byte[] secret, String origin) {
        this.key = new SecretKeySpec(secret, ALGORITHM);
        this.origin = origin;
    }

    /**
     * A secret given as text: its UTF-8 bytes.
     *
     * @param origin where it came from, for log lines ("the net.secret option"); never the secret
     */
    public static SharedSecret of(String text, String origin) {
        FaroException.checkArgument(text != null && !text.isEmpty(), "the shared secret must not be empty");
        return new SharedSecret(text.getBytes(StandardCharsets.UTF_8), origin);
    }

    /** The random secret of this JVM: nodes of this process share it, nodes of other processes do not know it. */
    public static SharedSecret perProcess() {
        return PER_PROCESS;
    }

    private static SharedSecret generate() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return new SharedSecret(secret, "generated for this process");
    }

    /** Where the secret came from, for log lines ("net.secret", "generated for this process"); never the secret. */
    public String origin() {
        return origin;
    }

    /** A fresh HMAC for one thread. */
    public Mac newMac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable: " + e, e);
        }
    }

    /** A fresh random nonce of {@value #NONCE_LENGTH} bytes. */
    public static byte[] nonce() {
        byte[] nonce = new byte[NONCE_LENGTH];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    /**
     * HMAC(secret, label ‖ 0 ‖ for each part: its length (4 bytes, big-endian) ‖ the part): the proof that its
     * author knows the secret. The lengths keep two different lists of parts from hashing alike. Coordination code
     * (allocates).
     */
    public byte[] proof(String label, byte[]... parts) {
        Mac mac = newMac();
        mac.update(label.getBytes(StandardCharsets.US_ASCII));
        mac.update((byte) 0);
        for (byte[] part : parts) {
            mac.update(ByteBuffer.allocate(4).putInt(part.length).array());
            mac.update(part);
        }
        return mac.doFinal();
    }

    /** Constant-time comparison of a received proof with the expected one; false when none was received. */
    public static boolean matches(byte[] expected, byte[] received) {
        return received != null && MessageDigest.isEqual(expected, received);
    }

    @Override
    public String toString() {
        return "SharedSecret[" + origin + "]"; // never the secret
    }
}
