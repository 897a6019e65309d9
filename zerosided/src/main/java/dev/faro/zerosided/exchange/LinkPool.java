package dev.faro.zerosided.exchange;

import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.link.PacketLink;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A node's shared-memory packet links, kept for the node's lifetime and lent to one exchange at a time (its NIC's
 * link, and at node 0 its switch's): opening a link maps and formats a ring of a few MB, which measured 100 ms per
 * link on the loaded test host, several times an exchange's own work. A link comes back when its exchange's agents
 * have stopped, and is drained of leftover datagrams when lent again; a late datagram of a finished exchange that
 * arrives after that is refused by the receiving NIC or switch (its source port, queue pair and PSN do not match a
 * connection of the new exchange; each exchange starts its connections at random PSNs).
 *
 * <p>A {@code TransportNode#shared} object of the node. Thread-safe.
 */
final class LinkPool implements AutoCloseable {

    /** The key of the node's pool among the node's shared objects. */
    static final String KEY = "zerosided/links";

    private final ArrayDeque<PacketLink> idle = new ArrayDeque<>();
    private final List<PacketLink> all = new ArrayList<>();
    private final ByteBuffer drain = ByteBuffer.allocateDirect(16 << 10); // above any datagram
    private boolean closed;

    /** A link of this node, drained; opened if none is idle. */
    synchronized PacketLink lend() {
        if (closed) {
            throw new IllegalStateException("the node's zero-sided links are closed");
        }
        PacketLink link = idle.pollFirst();
        if (link == null) {
            link = LinkKind.SHM.open();
            all.add(link);
        } else {
            while (link.receive(drain, 0) != PacketLink.NOTHING) {
                // a finished exchange's datagram
            }
        }
        return link;
    }

    /** Takes back {@code link}, which no thread uses any more. */
    synchronized void giveBack(PacketLink link) {
        if (closed) {
            link.close();
        } else {
            idle.addLast(link);
        }
    }

    /** Closes every link of the pool (lent ones too: the node has stopped). */
    @Override
    public synchronized void close() {
        closed = true;
        all.forEach(PacketLink::close);
        all.clear();
        idle.clear();
    }
}
