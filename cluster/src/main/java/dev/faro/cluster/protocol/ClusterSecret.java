package dev.faro.cluster.protocol;

import dev.faro.fabric.auth.SharedSecret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Set;

/**
 * The shared secret workers prove they know when they join (see {@link Handshake}) and with which the nodes
 * authenticate their other connections (the TCP shuffle baseline's, through {@link #sharedSecret()}); it never
 * crosses the wire. Comes from a file (first line, trimmed), from the environment variable
 * {@value #ENVIRONMENT_VARIABLE}, or is generated per local cluster. {@link #toString()} never shows it.
 */
public final class ClusterSecret {

    /** The environment variable a worker reads the secret from when no file is given. */
    public static final String ENVIRONMENT_VARIABLE = "FARO_CLUSTER_SECRET";

    private static final int GENERATED_BYTES = 32;

    private final byte[] key;
    private final SharedSecret shared;

    private ClusterSecret(String text) {
        Objects.requireNonNull(text, "secret is null");
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("the cluster secret is empty");
        }
        this.key = trimmed.getBytes(StandardCharsets.UTF_8);
        this.shared = SharedSecret.of(trimmed, "the cluster secret");
    }

    /** A secret from its text form. */
    public static ClusterSecret of(String text) {
        return new ClusterSecret(text);
    }

    /** A fresh random secret (256 bits, hex). */
    public static ClusterSecret generate() {
        byte[] bytes = new byte[GENERATED_BYTES];
        new SecureRandom().nextBytes(bytes);
        return new ClusterSecret(HexFormat.of().formatHex(bytes));
    }

    /** Reads the first line of {@code file}. */
    public static ClusterSecret readFile(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int newline = text.indexOf('\n');
        return new ClusterSecret(newline < 0 ? text : text.substring(0, newline));
    }

    /** The secret in {@value #ENVIRONMENT_VARIABLE}, or null when it is unset or blank. */
    public static ClusterSecret fromEnvironment() {
        String text = System.getenv(ENVIRONMENT_VARIABLE);
        return text == null || text.isBlank() ? null : new ClusterSecret(text);
    }

    /** Writes the secret to a new file readable only by its owner (0600 where the file system is POSIX). */
    public void writeFile(Path file) throws IOException {
        Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(ownerOnly));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
        }
        Files.writeString(file, text() + "\n", StandardCharsets.UTF_8);
    }

    /** The secret's text, for handing to a local worker through its environment; never log it. */
    public String text() {
        return new String(key, StandardCharsets.UTF_8);
    }

    /**
     * The secret as the HMAC key of {@link dev.faro.fabric.auth.ChallengeResponse}: for the cluster port's handshake
     * and every other connection the cluster's nodes authenticate (the TCP shuffle baseline's). Never logs the secret.
     */
    public SharedSecret sharedSecret() {
        return shared;
    }

    /**
     * A secret for {@code purpose} derived from this one (HMAC-SHA256 of the purpose, hex), so that a worker can key
     * another protocol, such as the {@code net} fabric's connections, with a secret every node of the cluster knows
     * without it ever crossing the wire; a different purpose gives an unrelated value. Never log it.
     */
    public String derive(String purpose) {
        return HexFormat.of().formatHex(shared.proof("faro derived secret: " + purpose));
    }

    @Override
    public String toString() {
        return "ClusterSecret[hidden]";
    }
}
