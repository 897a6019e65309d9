package dev.faro.fabric.net;

import dev.faro.fabric.FaroException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The messages of the bootstrap service ({@link NetBootstrapServer}, {@link NetBootstrapClient}) over one TCP
 * connection, each {@code type (1) | length (4, big-endian) | payload}.
 *
 * <pre>
 *  server                                             client
 *   HELLO   magic "FBS1" (4) | version (1) | nonceS (32) ──►
 *                                          ◄── PROOF  nonceC (32) | responderProof(nonceS, nonceC)
 *   checks it; on failure logs and closes (nothing else changes)
 *   PROOF   challengerProof(nonceS, nonceC) ──►                     checks it (a client talks only to a server
 *                                                                    that knows the secret too)
 *                                          ◄── PUBLISH  nameLength (2) | name (UTF-8) | value
 *   OK | ERROR message (UTF-8) ──►
 *                                          ◄── FETCH    timeoutMillis (8) | nameLength (2) | name (UTF-8)
 *   VALUE value | MISSING (not published within the timeout) | ERROR message ──►
 * </pre>
 * The proofs are {@link dev.faro.fabric.auth.ChallengeResponse}'s for protocol {@value #PROTOCOL}, without a binding.
 * A name is published once: publishing it again with the same bytes is a no-op, with other bytes an error, so two
 * nodes cannot silently overwrite each other's addresses.
 *
 * <p>Coordination code.
 */
final class BootstrapProtocol {

    static final int MAGIC = 0x46425331; // "FBS1"
    static final byte VERSION = 1;
    /** The protocol's name in the proofs of its {@link dev.faro.fabric.auth.ChallengeResponse} (client: responder). */
    static final String PROTOCOL = "faro-bootstrap/1";

    static final byte HELLO = 1;
    static final byte PROOF = 2;
    static final byte PUBLISH = 3;
    static final byte FETCH = 4;
    static final byte OK = 5;
    static final byte VALUE = 6;
    static final byte MISSING = 7;
    static final byte ERROR = 8;

    static final int MAX_NAME_BYTES = 256;
    static final int MAX_VALUE_BYTES = 1 << 20;
    static final int MAX_MESSAGE_BYTES = MAX_VALUE_BYTES + MAX_NAME_BYTES + 16;
    static final int MAX_ENTRIES = 1 << 16;

    private BootstrapProtocol() {}

    /** One message as read: its type and payload. */
    record Message(byte type, byte[] payload) {}

    static void write(DataOutputStream out, byte type, byte[] payload) throws IOException {
        out.writeByte(type);
        out.writeInt(payload.length);
        out.write(payload);
        out.flush();
    }

    /** Reads one message; {@code limit} bounds what an unauthenticated peer can make us allocate. */
    static Message read(DataInputStream in, int limit) throws IOException {
        byte type = in.readByte();
        int length = in.readInt();
        if (length < 0 || length > limit) {
            throw new IOException("message of " + length + " bytes (at most " + limit + ")");
        }
        byte[] payload = new byte[length];
        in.readFully(payload);
        return new Message(type, payload);
    }

    static byte[] name(String name) {
        FaroException.checkArgument(name != null && !name.isEmpty(), "a bootstrap name must not be empty");
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        FaroException.checkArgument(
                bytes.length <= MAX_NAME_BYTES,
                "bootstrap name of %d bytes (at most %d)",
                bytes.length,
                MAX_NAME_BYTES);
        return bytes;
    }
}
