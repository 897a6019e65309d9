package dev.faro.fabric.net;

import dev.faro.fabric.FaroException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret every node of a cluster shares, and the HMAC-SHA256 proofs built on it: the challenge–response of a TCP
 * connection's handshake, the per-datagram tag of UD and the bootstrap service's handshake. The secret itself never
 * travels; only proofs over fresh nonces do, each bound to a label so a proof for one role cannot be replayed as
 * another's.
 *
 * <p>Immutable and thread-safe; {@link Mac} instances it hands out are not, and belong to one thread.
 */
final class SharedSecret {

    static final String ALGORITHM = "HmacSHA256";
    static final int PROOF_LENGTH = 32;
    static final int NONCE_LENGTH = 32;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final SharedSecret PER_PROCESS = generate();

    private final SecretKeySpec key;
    private final String origin;

    private SharedSecret(byte[] secret, String origin) {
        this.key = new SecretKeySpec(secret, ALGORITHM);
        this.origin = origin;
    }

    /** A secret given as text (the {@code net.secret} option): its UTF-8 bytes. */
    static SharedSecret of(String text, String origin) {
        FaroException.checkArgument(text != null && !text.isEmpty(), "the shared secret must not be empty");
        return new SharedSecret(text.getBytes(StandardCharsets.UTF_8), origin);
    }

    /** The random secret of this JVM: nodes of this process share it, nodes of other processes do not know it. */
    static SharedSecret perProcess() {
        return PER_PROCESS;
    }

    private static SharedSecret generate() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return new SharedSecret(secret, "generated for this process");
    }

    /** Where the secret came from, for log lines ("net.secret", "generated for this process"); never the secret. */
    String origin() {
        return origin;
    }

    /** A fresh HMAC for one thread. */
    Mac newMac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable: " + e, e);
        }
    }

    /** A fresh random nonce. */
    static byte[] nonce() {
        byte[] nonce = new byte[NONCE_LENGTH];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    /** HMAC(secret, label ‖ parts…): the proof that its author knows the secret. Coordination code (allocates). */
    byte[] proof(String label, byte[]... parts) {
        Mac mac = newMac();
        mac.update(label.getBytes(StandardCharsets.US_ASCII));
        mac.update((byte) 0);
        for (byte[] part : parts) {
            mac.update(ByteBuffer.allocate(4).putInt(part.length).array());
            mac.update(part);
        }
        return mac.doFinal();
    }

    /** Constant-time comparison of a received proof with the expected one. */
    static boolean matches(byte[] expected, byte[] received) {
        return received != null && MessageDigest.isEqual(expected, received);
    }

    static byte[] longBytes(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    @Override
    public String toString() {
        return "SharedSecret[" + origin + "]"; // never the secret
    }
}
