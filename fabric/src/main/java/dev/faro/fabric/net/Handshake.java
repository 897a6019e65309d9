package dev.faro.fabric.net;

import dev.faro.fabric.auth.ChallengeResponse;
import dev.faro.fabric.auth.SharedSecret;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The first frames of every connection: mutual challenge–response over the shared secret, so that neither side acts
 * on a frame from a peer that cannot prove it knows the secret. The dialer proves first, so the node being dialed is
 * the one that refuses an intruder, with a clear log line.
 *
 * <pre>
 *  dialer D                                                     acceptor A
 *   HELLO      nodeD (8) | expected nodeA (8) | nonceD (32) ──►  nodeA must be A's own id
 *         ◄── CHALLENGE  nodeA (8) | nonceA (32)
 *   checks nodeA
 *   PROOF      proofD (32) ─────────────────────────────────►   checks proofD, or logs and closes; READY
 *         ◄── WELCOME    proofA (32)
 *   checks proofA, or logs and fails the node; READY
 *
 *  proofD = responderProof(nonceA, nonceD, nodeD ‖ nodeA)
 *  proofA = challengerProof(nonceA, nonceD, nodeD ‖ nodeA)
 * </pre>
 * The proofs are {@link ChallengeResponse}'s for protocol {@value #PROTOCOL} (the acceptor challenges, the dialer
 * responds; the two node ids are the binding).
 * Labels keep a proof of one role from serving as the other's; fresh nonces on both sides keep a recorded handshake
 * from being replayed. An acceptor that cannot verify its peer logs why and closes, changing nothing else; a dialer
 * that cannot verify its peer (or is refused by it) fails the node, so the queue pairs connected to it see error
 * completions. After the handshake, frames are not authenticated one by one: TCP delivers them, and the connection
 * is only as private as the network (use a VPN between hosts you do not trust).
 *
 * <p>Coordination code (allocates); runs on the progress thread.
 */
final class Handshake implements FrameHandler {

    static final String PROTOCOL = "faro-net/1";
    private static final System.Logger LOG = System.getLogger(Handshake.class.getName());

    private static final int AWAIT_HELLO = 0;
    private static final int AWAIT_PROOF = 1;
    private static final int AWAIT_CHALLENGE = 2;
    private static final int AWAIT_WELCOME = 3;

    private static final int HELLO_LENGTH = 8 + 8 + SharedSecret.NONCE_LENGTH;
    private static final int CHALLENGE_LENGTH = 8 + SharedSecret.NONCE_LENGTH;

    private final ProgressAgent agent;
    private final SharedSecret secret;
    private final ChallengeResponse proofs;
    private final long self;

    Handshake(ProgressAgent agent, SharedSecret secret, long self) {
        this.agent = agent;
        this.secret = secret;
        this.proofs = new ChallengeResponse(secret, PROTOCOL);
        this.self = self;
    }

    /** Dialer: the connection is up; say HELLO to the node we expect there. */
    void start(Connection connection, long nowNs) {
        connection.onConnected(nowNs);
        connection.localNonce = SharedSecret.nonce();
        connection.handshakeStep = AWAIT_CHALLENGE;
        ByteBuffer hello = ByteBuffer.allocate(HELLO_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        hello.putLong(self).putLong(connection.remote.node).put(connection.localNonce);
        connection.writer.appendHandshake(FrameDescriptor.HELLO, hello.array());
    }

    /** Acceptor: a new connection waits for HELLO. */
    void accept(Connection connection, long nowNs) {
        connection.handshakeStep = AWAIT_HELLO;
        connection.onConnected(nowNs);
    }

    @Override
    public void onHeader(Connection connection, FrameDescriptor.Header header, long nowNs) {
        if (!FrameDescriptor.isHandshake(header.type)) {
            refuse(connection, "it sent frame type " + header.type + " before authenticating");
            return;
        }
        connection.sinkSmall();
    }

    @Override
    public void onFrame(Connection connection, FrameDescriptor.Header header, long nowNs) {
        ByteBuffer payload = connection.small.flip();
        int step = connection.handshakeStep;
        if (step == AWAIT_HELLO && header.type == FrameDescriptor.HELLO && payload.remaining() == HELLO_LENGTH) {
            onHello(connection, payload);
        } else if (step == AWAIT_PROOF
                && header.type == FrameDescriptor.PROOF
                && payload.remaining() == SharedSecret.PROOF_LENGTH) {
            onProof(connection, payload, nowNs);
        } else if (step == AWAIT_CHALLENGE
                && header.type == FrameDescriptor.CHALLENGE
                && payload.remaining() == CHALLENGE_LENGTH) {
            onChallenge(connection, payload);
        } else if (step == AWAIT_WELCOME
                && header.type == FrameDescriptor.WELCOME
                && payload.remaining() == SharedSecret.PROOF_LENGTH) {
            onWelcome(connection, payload, nowNs);
        } else {
            refuse(
                    connection,
                    "it broke the handshake (frame type " + header.type + ", " + payload.remaining() + " bytes)");
        }
    }

    private void onHello(Connection connection, ByteBuffer payload) {
        long dialerNode = payload.getLong();
        long expected = payload.getLong();
        connection.remoteNonce = new byte[SharedSecret.NONCE_LENGTH];
        payload.get(connection.remoteNonce);
        if (expected != self) {
            refuse(
                    connection,
                    "it addressed node " + Long.toHexString(expected) + ", which is not this node (a stale"
                            + " address of a node that restarted?)");
            return;
        }
        connection.handshakePeerNode = dialerNode;
        connection.localNonce = SharedSecret.nonce();
        ByteBuffer challenge = ByteBuffer.allocate(CHALLENGE_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        challenge.putLong(self).put(connection.localNonce);
        connection.handshakeStep = AWAIT_PROOF;
        connection.writer.appendHandshake(FrameDescriptor.CHALLENGE, challenge.array());
    }

    private void onChallenge(Connection connection, ByteBuffer payload) {
        long acceptorNode = payload.getLong();
        connection.remoteNonce = new byte[SharedSecret.NONCE_LENGTH];
        payload.get(connection.remoteNonce);
        if (acceptorNode != connection.remote.node) {
            agent.nodes.onConnectionFailed(
                    connection,
                    "node " + Long.toHexString(acceptorNode) + " answers at "
                            + connection.peerSocket + ", not node " + Long.toHexString(connection.remote.node)
                            + " (a stale address?)");
            return;
        }
        byte[] proof =
                proofs.responderProof(connection.remoteNonce, connection.localNonce, binding(self, acceptorNode));
        connection.handshakeStep = AWAIT_WELCOME;
        connection.writer.appendHandshake(FrameDescriptor.PROOF, proof);
    }

    private void onProof(Connection connection, ByteBuffer payload, long nowNs) {
        byte[] received = new byte[SharedSecret.PROOF_LENGTH];
        payload.get(received);
        byte[] binding = binding(connection.handshakePeerNode, self);
        if (!proofs.verifyResponder(connection.localNonce, connection.remoteNonce, binding, received)) {
            agent.countAuthenticationFailure();
            refuse(
                    connection,
                    "it did not prove the shared secret (wrong or missing " + NetFabricProvider.SECRET_OPTION
                            + "; this node's secret is " + secret.origin() + ")");
            return;
        }
        byte[] proof = proofs.challengerProof(connection.localNonce, connection.remoteNonce, binding);
        connection.writer.appendHandshake(FrameDescriptor.WELCOME, proof);
        connection.phase = Connection.Phase.READY;
        agent.nodes.onAccepted(connection, connection.handshakePeerNode, nowNs);
    }

    private void onWelcome(Connection connection, ByteBuffer payload, long nowNs) {
        byte[] received = new byte[SharedSecret.PROOF_LENGTH];
        payload.get(received);
        if (!proofs.verifyChallenger(
                connection.remoteNonce, connection.localNonce, binding(self, connection.remote.node), received)) {
            agent.countAuthenticationFailure();
            agent.nodes.onConnectionFailed(
                    connection,
                    "the peer did not prove the shared secret (wrong or missing "
                            + NetFabricProvider.SECRET_OPTION + "; this node's secret is " + secret.origin()
                            + "); refusing it");
            return;
        }
        connection.phase = Connection.Phase.READY;
        agent.nodes.onDialed(connection, nowNs);
    }

    /** What a connection's proofs cover: the dialer's node id, then the acceptor's. */
    private static byte[] binding(long dialerNode, long acceptorNode) {
        return ByteBuffer.allocate(16).putLong(dialerNode).putLong(acceptorNode).array();
    }

    /**
     * Refuses an unauthenticated peer: a log line and a closed socket, nothing else. A dialer's refusal fails the
     * node it dialed (its queue pairs cannot reach it).
     */
    void refuse(Connection connection, String reason) {
        if (connection.dialer) {
            agent.nodes.onConnectionFailed(connection, reason);
            return;
        }
        LOG.log(
                Level.WARNING,
                "fabric node {0}: refused TCP connection from {1}: {2}",
                agent.nodeName(),
                connection.peerSocket,
                reason);
        agent.nodes.discard(connection);
    }
}
