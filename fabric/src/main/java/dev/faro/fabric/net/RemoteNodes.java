package dev.faro.fabric.net;

import dev.faro.fabric.CompletionStatus;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.Map;

/**
 * The other nodes as this node's progress thread knows them ({@link RemoteNode}), and the rules of their life cycle:
 * an RC queue pair that connects binds to its peer's node (dialing it if need be); a connection that completes its
 * handshake joins its node; a connection that breaks fails its node (once the one carrying its answers ended, {@link
 * #onConnectionFailed}), which closes every connection to it and moves every RC queue pair connected to it to ERROR
 * (outstanding requests RETRY_EXCEEDED, receives FLUSHED). A failed node stays failed: there is no reconnect. A
 * connection that breaks before it authenticated, on the accepting side, changes nothing but a log line.
 *
 * <p>Coordination code, on the progress thread only.
 */
final class RemoteNodes {

    private static final System.Logger LOG = System.getLogger(RemoteNodes.class.getName());

    private final ProgressAgent agent;
    private final NetFabric fabric;
    private final Map<Long, RemoteNode> nodes = new HashMap<>();

    RemoteNodes(ProgressAgent agent, NetFabric fabric) {
        this.agent = agent;
        this.fabric = fabric;
    }

    /** An RC queue pair connected to {@code peer}: bind it to the peer's node and make sure a connection exists. */
    void bind(NetRcQueuePair queuePair, NetQueuePairAddress peer) {
        RemoteNode node = nodes.computeIfAbsent(peer.node(), RemoteNode::new);
        if (node.address == null) {
            node.address = peer.address;
        }
        queuePair.remote = node;
        if (node.failed) {
            LOG.log(
                    Level.WARNING,
                    "fabric node {0}: queue pair {1} connects to peer node {2}, which failed earlier"
                            + " and does not come back (no reconnect); the queue pair enters ERROR",
                    agent.nodeName(),
                    queuePair.queuePairNumber(),
                    node);
            queuePair.enterError(CompletionStatus.RETRY_EXCEEDED);
        } else if (node.dialed == null) {
            agent.dial(node);
        }
    }

    void onDialed(Connection connection, long now) {
        connection.remote.everReady = true;
        connection.lastReadNs = now;
        LOG.log(Level.DEBUG, "fabric node {0}: connected to node {1}", agent.nodeName(), connection.remote);
    }

    void onAccepted(Connection connection, long peerNode, long now) {
        RemoteNode node = nodes.computeIfAbsent(peerNode, RemoteNode::new);
        if (node.failed) {
            LOG.log(
                    Level.DEBUG,
                    "fabric node {0}: closing a new connection from node {1}, which failed before",
                    agent.nodeName(),
                    Long.toHexString(peerNode));
            connection.close();
            return;
        }
        connection.remote = node;
        connection.lastReadNs = now;
        node.accepted.add(connection);
        node.everReady = true;
    }

    /** Closes a connection that never authenticated; nothing else changes. */
    void discard(Connection connection) {
        connection.close();
    }

    /**
     * A connection broke. Before authentication on the accepting side it is only logged; otherwise the node behind
     * it has failed. It fails when the connection this node dialed to it ends (EOF, an error, or silence for
     * peerTimeout) if that one is established: it carries the node's answers to this node's requests, and only its end
     * says that no more come. A closing or dying peer's other connections may end first (the selector reports them in
     * any order, and the network may deliver one connection's end before another's last answers); failing then would
     * fail requests whose ACK is on the way or unread in the socket.
     */
    void onConnectionFailed(Connection connection, String reason) {
        if (connection.phase == Connection.Phase.CLOSED) {
            return;
        }
        boolean established = connection.phase == Connection.Phase.READY;
        connection.close();
        if (!connection.dialer && !established) {
            LOG.log(
                    Level.WARNING,
                    "fabric node {0}: refused TCP connection from {1}: {2} (if it is a fabric node, is" + " "
                            + NetFabricProvider.SECRET_OPTION + " the same on both?)",
                    agent.nodeName(),
                    connection.peerSocket,
                    reason);
            return;
        }
        RemoteNode node = connection.remote;
        if (node == null) {
            return;
        }
        if (connection != node.dialed && node.dialed != null && node.dialed.isReady()) {
            LOG.log(
                    Level.DEBUG,
                    "fabric node {0}: a connection from node {1} ended ({2}); the node fails when the"
                            + " connection to it, which carries its answers, ends",
                    agent.nodeName(),
                    node,
                    reason);
            return;
        }
        fail(node, reason);
    }

    /**
     * The node is gone: close its connections and move every RC queue pair connected to it to ERROR. Answers it sent
     * before (already in the socket of the connection dialed to it) are taken in first: the requests they answer were
     * carried out and complete successfully; only the rest fail.
     */
    void fail(RemoteNode node, String reason) {
        if (node.failed) {
            return;
        }
        node.failed = true;
        Connection dialed = node.dialed;
        if (dialed != null && dialed.isReady()) {
            dialed.onReadable(System.nanoTime()); // reaching its end now calls back here and returns: failed is set
        }
        if (node.dialed != null) {
            node.dialed.close();
        }
        for (Connection connection : node.accepted) {
            connection.close();
        }
        int connected = 0;
        for (NetQueuePair queuePair : fabric.queuePairArray()) {
            if (queuePair instanceof NetRcQueuePair rc && rc.remote == node && rc.isReady()) {
                connected++;
            }
        }
        // the log line first: whoever polls the error completions below can already read why
        if (node.saidGoodbye) {
            LOG.log(
                    Level.DEBUG,
                    "fabric node {0}: peer node {1} closed; failing the {2} queue pair(s) connected to" + " it",
                    agent.nodeName(),
                    node,
                    connected);
        } else {
            LOG.log(
                    Level.WARNING,
                    "fabric node {0}: peer node {1} failed: {2}; failing the {3} queue pair(s)" + " connected to it",
                    agent.nodeName(),
                    node,
                    reason,
                    connected);
        }
        if (node.everReady || connected > 0) {
            fabric.netCounters().countPeerFailure();
        }
        for (NetQueuePair queuePair : fabric.queuePairArray()) {
            if (queuePair instanceof NetRcQueuePair rc && rc.remote == node) {
                rc.enterError(CompletionStatus.RETRY_EXCEEDED);
            }
        }
    }
}
