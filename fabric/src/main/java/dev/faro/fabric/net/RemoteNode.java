package dev.faro.fabric.net;

import java.util.ArrayList;
import java.util.List;

/**
 * Another node as this node's progress thread knows it: where it listens, the connection this node dialed to it
 * (requests out, responses in) and the connections it dialed to this node (requests in, responses out). Once failed
 * it stays failed: the fabric does not reconnect, and every RC queue pair connected to it is in ERROR.
 *
 * <p>Progress thread only.
 */
final class RemoteNode {

    final long node;
    /** Where to dial; null while the node is known only from a connection it dialed. */
    NodeAddress address;

    Connection dialed;
    final List<Connection> accepted = new ArrayList<>(2);
    boolean failed;
    /** The peer announced an orderly close (GOODBYE) before its connections ended. */
    boolean saidGoodbye;
    /** A connection to or from the node completed its handshake at least once. */
    boolean everReady;

    RemoteNode(long node) {
        this.node = node;
    }

    @Override
    public String toString() {
        return Long.toHexString(node) + (address != null ? "@" + address : "");
    }
}
