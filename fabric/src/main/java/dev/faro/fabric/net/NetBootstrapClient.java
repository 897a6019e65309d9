package dev.faro.fabric.net;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.auth.ChallengeResponse;
import dev.faro.fabric.auth.SharedSecret;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

/**
 * A node's connection to the {@link NetBootstrapServer}: publish this node's queue-pair addresses and remote keys
 * under names, fetch the others' (waiting until they are published). Both sides prove the shared secret before
 * anything else ({@link BootstrapProtocol}).
 *
 * <pre>{@code
 * try (NetBootstrapClient bootstrap = NetBootstrapClient.connect(server, secret, Duration.ofSeconds(10))) {
 *     bootstrap.publish("worker-1/rc-to-2", queuePair.address().toBytes());
 *     QueuePairAddress peer = fabric.importAddress(bootstrap.fetch("worker-2/rc-to-1", Duration.ofSeconds(30)));
 * }
 * }</pre>
 *
 * <p>Coordination code, blocking I/O; one request at a time (methods are synchronized).
 */
public final class NetBootstrapClient implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(NetBootstrapClient.class.getName());

    private final Socket socket;
    private final InetSocketAddress server;
    private final DataInputStream in;
    private final DataOutputStream out;

    private NetBootstrapClient(Socket socket, InetSocketAddress server) throws IOException {
        this.socket = socket;
        this.server = server;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    /**
     * Connects and authenticates, within {@code timeout}.
     *
     * @throws FaroException {@code NETWORK} if the server is unreachable or refuses the secret, or does not prove it
     *     knows the secret itself
     */
    public static NetBootstrapClient connect(InetSocketAddress server, String secret, Duration timeout) {
        SharedSecret shared = SharedSecret.of(secret, "the bootstrap secret");
        int timeoutMs = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(server, timeoutMs);
            socket.setSoTimeout(timeoutMs);
            NetBootstrapClient client = new NetBootstrapClient(socket, server);
            client.authenticate(shared);
            socket.setSoTimeout(0);
            return client;
        } catch (IOException e) {
            closeQuietly(socket);
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    "bootstrap server " + server
                            + " is unreachable or refused this client (is the secret the same on both?): " + e,
                    e);
        } catch (RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    private void authenticate(SharedSecret secret) throws IOException {
        BootstrapProtocol.Message hello = BootstrapProtocol.read(in, 64);
        ByteBuffer payload = ByteBuffer.wrap(hello.payload());
        if (hello.type() != BootstrapProtocol.HELLO
                || payload.remaining() != 5 + SharedSecret.NONCE_LENGTH
                || payload.getInt() != BootstrapProtocol.MAGIC
                || payload.get() != BootstrapProtocol.VERSION) {
            throw new FaroException(FaroException.Category.NETWORK, server + " is not a faro bootstrap server");
        }
        byte[] serverNonce = new byte[SharedSecret.NONCE_LENGTH];
        payload.get(serverNonce);
        byte[] clientNonce = SharedSecret.nonce();
        ChallengeResponse proofs = new ChallengeResponse(secret, BootstrapProtocol.PROTOCOL);
        byte[] proof = proofs.responderProof(serverNonce, clientNonce, null);
        byte[] message = Arrays.copyOf(clientNonce, clientNonce.length + proof.length);
        System.arraycopy(proof, 0, message, clientNonce.length, proof.length);
        BootstrapProtocol.write(out, BootstrapProtocol.PROOF, message);
        BootstrapProtocol.Message answer;
        try {
            answer = BootstrapProtocol.read(in, SharedSecret.PROOF_LENGTH);
        } catch (java.io.EOFException | java.net.SocketException e) {
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    "bootstrap server " + server
                            + " refused this client: it did not accept the proof of the shared secret (wrong secret?)",
                    e);
        }
        if (answer.type() != BootstrapProtocol.PROOF
                || !proofs.verifyChallenger(serverNonce, clientNonce, null, answer.payload())) {
            LOG.log(Level.WARNING, "bootstrap client: refused server {0}: it did not prove the shared secret", server);
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    "bootstrap server " + server + " did not prove the shared secret; refusing it");
        }
    }

    /**
     * Publishes {@code value} under {@code name}. Publishing the same bytes again is a no-op.
     *
     * @throws FaroException {@code INVALID_ARGUMENT} if the name is taken by other bytes or too long; {@code NETWORK}
     *     if the connection fails
     */
    public synchronized void publish(String name, byte[] value) {
        byte[] nameBytes = BootstrapProtocol.name(name);
        FaroException.checkArgument(
                value != null && value.length <= BootstrapProtocol.MAX_VALUE_BYTES,
                "bootstrap value of %s bytes (at most 1 MiB)",
                value == null ? -1 : value.length);
        byte[] payload = ByteBuffer.allocate(2 + nameBytes.length + value.length)
                .putShort((short) nameBytes.length)
                .put(nameBytes)
                .put(value)
                .array();
        BootstrapProtocol.Message answer = call(BootstrapProtocol.PUBLISH, payload);
        if (answer.type() == BootstrapProtocol.ERROR) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "cannot publish '" + name + "': " + new String(answer.payload(), StandardCharsets.UTF_8));
        }
    }

    /**
     * The value published under {@code name}, waiting up to {@code timeout} for it to be published.
     *
     * @throws FaroException {@code TIMEOUT} if nothing was published under the name in time
     */
    public synchronized byte[] fetch(String name, Duration timeout) {
        byte[] nameBytes = BootstrapProtocol.name(name);
        byte[] payload = ByteBuffer.allocate(10 + nameBytes.length)
                .putLong(Math.max(0, timeout.toMillis()))
                .putShort((short) nameBytes.length)
                .put(nameBytes)
                .array();
        BootstrapProtocol.Message answer = call(BootstrapProtocol.FETCH, payload);
        return switch (answer.type()) {
            case BootstrapProtocol.VALUE -> answer.payload();
            case BootstrapProtocol.MISSING ->
                throw new FaroException(
                        FaroException.Category.TIMEOUT,
                        "nothing was published as '" + name + "' on " + server + " within " + timeout);
            default ->
                throw new FaroException(
                        FaroException.Category.NETWORK,
                        "fetching '" + name + "' failed: " + new String(answer.payload(), StandardCharsets.UTF_8));
        };
    }

    private BootstrapProtocol.Message call(byte type, byte[] payload) {
        try {
            BootstrapProtocol.write(out, type, payload);
            return BootstrapProtocol.read(in, BootstrapProtocol.MAX_MESSAGE_BYTES);
        } catch (IOException e) {
            throw new FaroException(
                    FaroException.Category.NETWORK, "lost the bootstrap server " + server + ": " + e, e);
        }
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
