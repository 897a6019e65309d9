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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The rendezvous of a {@code net} cluster: nodes publish named byte blobs (their queue-pair addresses and remote
 * keys) and fetch each other's, waiting until a name is published. Every client must prove the cluster's shared
 * secret first ({@link BootstrapProtocol}); one that cannot is refused with a log line and changes nothing.
 *
 * <pre>{@code
 * try (NetBootstrapServer server = NetBootstrapServer.start("127.0.0.1", 0, secret)) {   // on one host
 *     ... nodes: NetBootstrapClient.connect(server.address(), secret, timeout)
 * }
 * }</pre>
 *
 * <p>Binds to loopback unless an address is given. Coordination code: an acceptor thread and one virtual thread per
 * client, blocking I/O. Thread-safe.
 */
public final class NetBootstrapServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(NetBootstrapServer.class.getName());
    /** How long an unauthenticated client may take to prove the secret. */
    private static final int HANDSHAKE_TIMEOUT_MS = 10_000;

    private final ServerSocket socket;
    private final SharedSecret secret;
    private final Map<String, byte[]> entries = new HashMap<>();
    private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile boolean closed;

    private NetBootstrapServer(ServerSocket socket, SharedSecret secret) {
        this.socket = socket;
        this.secret = secret;
        this.acceptor =
                Thread.ofPlatform().daemon().name("faro-bootstrap-acceptor").unstarted(this::acceptLoop);
    }

    /**
     * Starts a server on {@code bindAddress} (an IP literal, e.g. {@code 127.0.0.1}) and {@code port} (0: ephemeral),
     * accepting clients that know {@code secret}.
     */
    public static NetBootstrapServer start(String bindAddress, int port, String secret) {
        SharedSecret shared = SharedSecret.of(secret, "the bootstrap secret");
        InetAddress address;
        try {
            address = InetAddress.ofLiteral(bindAddress);
        } catch (IllegalArgumentException e) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "bootstrap bind address must be an IP literal: '" + bindAddress + "'",
                    e);
        }
        FaroException.checkArgument(port >= 0 && port <= 65535, "port must be within [0, 65535]: %d", port);
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, port), 64);
            NetBootstrapServer server = new NetBootstrapServer(socket, shared);
            server.acceptor.start();
            return server;
        } catch (IOException e) {
            throw new FaroException(
                    FaroException.Category.IO,
                    "cannot start the bootstrap server on " + bindAddress + ":" + port + ": " + e.getMessage(),
                    e);
        }
    }

    /** A server on loopback, on an ephemeral port. */
    public static NetBootstrapServer start(String secret) {
        return start("127.0.0.1", 0, secret);
    }

    /** Where clients connect. */
    public InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    /** The names published so far. */
    public synchronized Set<String> names() {
        return Set.copyOf(entries.keySet());
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = socket.accept();
                clients.add(client);
                Thread.ofVirtual().name("faro-bootstrap-client").start(() -> serve(client));
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "bootstrap server {0}: accept failed: {1}", address(), e.getMessage());
                }
            }
        }
    }

    private void serve(Socket client) {
        String who = String.valueOf(client.getRemoteSocketAddress());
        try (client) {
            client.setTcpNoDelay(true);
            client.setSoTimeout(HANDSHAKE_TIMEOUT_MS);
            DataInputStream in = new DataInputStream(new BufferedInputStream(client.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(client.getOutputStream()));
            if (!authenticate(in, out, who)) {
                return;
            }
            client.setSoTimeout(0);
            while (!closed) {
                BootstrapProtocol.Message message = BootstrapProtocol.read(in, BootstrapProtocol.MAX_MESSAGE_BYTES);
                switch (message.type()) {
                    case BootstrapProtocol.PUBLISH -> publish(message.payload(), out);
                    case BootstrapProtocol.FETCH -> fetch(message.payload(), out);
                    default -> {
                        BootstrapProtocol.write(
                                out,
                                BootstrapProtocol.ERROR,
                                ("unknown request type " + message.type()).getBytes(StandardCharsets.UTF_8));
                        return;
                    }
                }
            }
        } catch (java.io.EOFException | java.net.SocketException e) {
            // the client left
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                LOG.log(Level.DEBUG, "bootstrap server {0}: client {1} failed: {2}", address(), who, e.toString());
            }
        } finally {
            clients.remove(client);
        }
    }

    /** The challenge–response; false (after a log line) if the client cannot prove the secret. */
    private boolean authenticate(DataInputStream in, DataOutputStream out, String who) throws IOException {
        byte[] serverNonce = SharedSecret.nonce();
        BootstrapProtocol.write(
                out,
                BootstrapProtocol.HELLO,
                ByteBuffer.allocate(5 + serverNonce.length)
                        .putInt(BootstrapProtocol.MAGIC)
                        .put(BootstrapProtocol.VERSION)
                        .put(serverNonce)
                        .array());
        BootstrapProtocol.Message proof;
        try {
            proof = BootstrapProtocol.read(in, 2 * SharedSecret.PROOF_LENGTH);
        } catch (SocketTimeoutException e) {
            refuse(who, "it sent no proof of the shared secret within " + HANDSHAKE_TIMEOUT_MS + " ms");
            return false;
        } catch (IOException e) {
            refuse(who, "it sent no proof of the shared secret (" + e.getMessage() + ")");
            return false;
        }
        byte[] payload = proof.payload();
        if (proof.type() != BootstrapProtocol.PROOF || payload.length != 2 * SharedSecret.PROOF_LENGTH) {
            refuse(who, "it sent no proof of the shared secret");
            return false;
        }
        byte[] clientNonce = Arrays.copyOfRange(payload, 0, SharedSecret.NONCE_LENGTH);
        byte[] received = Arrays.copyOfRange(payload, SharedSecret.NONCE_LENGTH, payload.length);
        ChallengeResponse proofs = new ChallengeResponse(secret, BootstrapProtocol.PROTOCOL);
        if (!proofs.verifyResponder(serverNonce, clientNonce, null, received)) {
            refuse(who, "it did not prove the shared secret (wrong or missing secret)");
            return false;
        }
        BootstrapProtocol.write(out, BootstrapProtocol.PROOF, proofs.challengerProof(serverNonce, clientNonce, null));
        return true;
    }

    private void refuse(String who, String reason) {
        LOG.log(Level.WARNING, "bootstrap server {0}: refused client {1}: {2}", address(), who, reason);
    }

    private void publish(byte[] payload, DataOutputStream out) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(payload);
        int nameLength = Short.toUnsignedInt(buffer.getShort());
        if (nameLength == 0 || nameLength > BootstrapProtocol.MAX_NAME_BYTES || nameLength > buffer.remaining()) {
            BootstrapProtocol.write(out, BootstrapProtocol.ERROR, "bad name".getBytes(StandardCharsets.UTF_8));
            return;
        }
        String name = new String(payload, 2, nameLength, StandardCharsets.UTF_8);
        byte[] value = Arrays.copyOfRange(payload, 2 + nameLength, payload.length);
        String problem = null;
        synchronized (this) {
            byte[] existing = entries.get(name);
            if (existing != null && !Arrays.equals(existing, value)) {
                problem = "'" + name + "' is already published with other bytes";
            } else if (existing == null && entries.size() >= BootstrapProtocol.MAX_ENTRIES) {
                problem = "the server holds " + BootstrapProtocol.MAX_ENTRIES + " names already";
            } else if (existing == null) {
                entries.put(name, value);
                notifyAll();
            }
        }
        if (problem == null) {
            BootstrapProtocol.write(out, BootstrapProtocol.OK, new byte[0]);
        } else {
            BootstrapProtocol.write(out, BootstrapProtocol.ERROR, problem.getBytes(StandardCharsets.UTF_8));
        }
    }

    private void fetch(byte[] payload, DataOutputStream out) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(payload);
        long timeoutMs = buffer.getLong();
        int nameLength = Short.toUnsignedInt(buffer.getShort());
        if (nameLength == 0 || nameLength != buffer.remaining()) {
            BootstrapProtocol.write(out, BootstrapProtocol.ERROR, "bad name".getBytes(StandardCharsets.UTF_8));
            return;
        }
        String name = new String(payload, 10, nameLength, StandardCharsets.UTF_8);
        long deadlineNs = System.nanoTime() + Math.max(0, timeoutMs) * 1_000_000;
        byte[] value;
        synchronized (this) {
            while ((value = entries.get(name)) == null && !closed) {
                long leftMs = (deadlineNs - System.nanoTime()) / 1_000_000;
                if (leftMs <= 0) {
                    break;
                }
                try {
                    wait(leftMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        if (value == null) {
            BootstrapProtocol.write(out, BootstrapProtocol.MISSING, new byte[0]);
        } else {
            BootstrapProtocol.write(out, BootstrapProtocol.VALUE, value);
        }
    }

    /** Stops accepting, disconnects every client and ends waiting fetches. Idempotent. */
    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        synchronized (this) {
            notifyAll();
        }
        for (Socket client : clients) {
            try {
                client.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "NetBootstrapServer[" + address() + "]";
    }
}
