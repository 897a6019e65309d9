package dev.faro.hyper;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a node's multiplexer publishes in each exchange's open gather: the incarnation of the multiplexer (a random
 * number per start, so a replaced worker is recognised), the remote key of its credit words, and the address of its
 * queue pair for each node (empty for itself). Encoded as {@code incarnation:int, key, address × nodes}, each byte
 * string as {@code length:int, bytes} (big-endian, {@link DataOutputStream}). Immutable value; coordination code.
 */
record ConnectionOffer(int incarnation, byte[] creditKey, List<byte[]> addresses) {

    ConnectionOffer {
        addresses = List.copyOf(addresses);
    }

    /** The address of the offering node's queue pair for {@code node}. */
    byte[] addressFor(int node) {
        return addresses.get(node);
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(incarnation);
            writeBytes(out, creditKey);
            for (byte[] address : addresses) {
                writeBytes(out, address);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Decodes an offer of a cluster of {@code nodes} nodes. */
    static ConnectionOffer decode(byte[] encoded, int nodes) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
            int incarnation = in.readInt();
            byte[] key = readBytes(in);
            List<byte[]> addresses = new ArrayList<>(nodes);
            for (int node = 0; node < nodes; node++) {
                addresses.add(readBytes(in));
            }
            return new ConnectionOffer(incarnation, key, addresses);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a connection offer of " + nodes + " nodes: " + e, e);
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] value) throws IOException {
        out.writeInt(value.length);
        out.write(value);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > 1 << 20) {
            throw new IOException("bad length " + length);
        }
        byte[] value = new byte[length];
        in.readFully(value);
        return value;
    }
}
