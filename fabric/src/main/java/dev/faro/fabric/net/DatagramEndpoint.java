package dev.faro.fabric.net;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.spi.PostedReceives;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.HashSet;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;

/**
 * A node's UDP socket, driven by the progress thread: builds, tags and sends the datagrams of UD SENDs (applying the
 * seeded faults of the sending queue pair), and verifies and delivers arriving ones into posted receives (layout in
 * {@link DatagramDescriptor}).
 *
 * <p>Data path: allocation-free, except what the JDK's datagram socket allocates per receive. Progress thread only.
 */
final class DatagramEndpoint {

    private static final System.Logger LOG = System.getLogger(DatagramEndpoint.class.getName());
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final NetFabric fabric;
    private final DatagramChannel channel;
    private final Mac mac;
    private final byte[] tag = new byte[32];
    private final ByteBuffer outgoing =
            ByteBuffer.allocateDirect(DatagramDescriptor.MAX_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer incoming =
            ByteBuffer.allocateDirect(DatagramDescriptor.MAX_LENGTH + 1).order(ByteOrder.LITTLE_ENDIAN);
    private final RegionViews views = new RegionViews();
    private final MemorySegment incomingSegment = MemorySegment.ofBuffer(incoming);
    private final Set<SocketAddress> refusedSources = new HashSet<>();
    /** Whether the last send found the socket full; the progress thread then waits for OP_WRITE. */
    boolean blocked;

    DatagramEndpoint(NetFabric fabric, DatagramChannel channel, SharedSecret secret) {
        this.fabric = fabric;
        this.channel = channel;
        this.mac = secret.newMac();
    }

    /**
     * Sends the datagram of {@code slot} (or loses, holds or duplicates it, as the queue pair's faults decide).
     * Returns false if the socket is full: the same slot is offered again later.
     */
    boolean send(NetUdQueuePair queuePair, SendSlot slot, long nowNs) {
        int decision = queuePair.decide(slot.sequence);
        if (decision == NetUdQueuePair.LOSE) {
            fabric.netCounters().countFaultLoss();
            releaseHeld(queuePair);
            return true;
        }
        build(queuePair, slot);
        if (decision == NetUdQueuePair.HOLD) {
            queuePair.held.clear();
            queuePair.held.put(outgoing).flip();
            queuePair.heldDestination = slot.destination;
            queuePair.heldDeadlineNs = nowNs + NetUdQueuePair.HOLD_NS;
            fabric.netCounters().countFaultReorder();
            return true;
        }
        if (!transmit(outgoing, slot.destination.udp)) {
            return false;
        }
        if (decision == NetUdQueuePair.DUPLICATE) {
            fabric.netCounters().countFaultDuplicate();
            outgoing.rewind();
            transmit(outgoing, slot.destination.udp);
        }
        releaseHeld(queuePair);
        return true;
    }

    /** Sends the datagram held back by reorder injection, if any. */
    int releaseHeld(NetUdQueuePair queuePair) {
        if (queuePair.heldDestination == null) {
            return 0;
        }
        NetQueuePairAddress destination = queuePair.heldDestination;
        queuePair.heldDestination = null;
        transmit(queuePair.held, destination.udp);
        return 1;
    }

    private void build(NetUdQueuePair queuePair, SendSlot slot) {
        NetQueuePairAddress destination = slot.destination;
        int length = slot.length;
        outgoing.clear();
        outgoing.putInt(DatagramDescriptor.MAGIC_OFFSET, DatagramDescriptor.MAGIC);
        outgoing.put(DatagramDescriptor.VERSION_OFFSET, DatagramDescriptor.VERSION);
        outgoing.put(DatagramDescriptor.TYPE_OFFSET, DatagramDescriptor.TYPE_SEND);
        outgoing.putShort(DatagramDescriptor.TYPE_OFFSET + 1, (short) 0);
        outgoing.putInt(DatagramDescriptor.PAYLOAD_LENGTH_OFFSET, length);
        outgoing.putInt(DatagramDescriptor.DESTINATION_QPN_OFFSET, destination.queuePairNumber());
        outgoing.putLong(DatagramDescriptor.SOURCE_NODE_OFFSET, fabric.node());
        outgoing.putInt(DatagramDescriptor.SOURCE_QPN_OFFSET, queuePair.queuePairNumber());
        outgoing.putInt(DatagramDescriptor.SOURCE_QPN_OFFSET + 4, 0);
        outgoing.putLong(DatagramDescriptor.DESTINATION_NODE_OFFSET, destination.node());
        outgoing.position(DatagramDescriptor.HEADER_LENGTH);
        if (length > 0) {
            if (slot.inline) {
                slot.inlineView.clear().limit(length);
                outgoing.put(slot.inlineView);
            } else {
                outgoing.put(views.view(slot.local, slot.localOffset, length));
            }
        }
        int tagAt = outgoing.position();
        outgoing.flip();
        mac.update(outgoing);
        try {
            mac.doFinal(tag, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException("tag buffer too small", e);
        }
        outgoing.limit(tagAt + DatagramDescriptor.TAG_LENGTH);
        outgoing.put(tagAt, tag, 0, DatagramDescriptor.TAG_LENGTH);
        outgoing.position(0);
    }

    /** One datagram to the wire; false if the socket buffer is full. Other failures drop it, as UD may. */
    private boolean transmit(ByteBuffer datagram, SocketAddress target) {
        int length = datagram.remaining();
        try {
            if (channel.send(datagram, target) == 0) {
                blocked = true;
                return false;
            }
        } catch (IOException e) {
            datagram.position(datagram.position() + length); // unreachable and the like: the datagram is lost
        }
        blocked = false;
        return true;
    }

    /** Receives and delivers every datagram waiting, up to a budget. Returns the datagrams handled. */
    int onReadable() {
        int handled = 0;
        while (handled < 256) {
            incoming.clear();
            SocketAddress source;
            try {
                source = channel.receive(incoming);
            } catch (IOException e) {
                return handled; // e.g. ICMP port unreachable surfaced on a later receive; nothing to deliver
            }
            if (source == null) {
                return handled;
            }
            incoming.flip();
            deliver(source);
            handled++;
        }
        return handled;
    }

    private void deliver(SocketAddress source) {
        int size = incoming.remaining();
        int length = DatagramDescriptor.checkedPayloadLength(incoming, size);
        if (length == DatagramDescriptor.NOT_A_DATAGRAM) {
            refuse(source, "not a faro net datagram");
            return;
        }
        if (length < 0) {
            refuse(
                    source,
                    "a datagram of " + size + " bytes claims a payload of "
                            + incoming.getInt(DatagramDescriptor.PAYLOAD_LENGTH_OFFSET));
            return;
        }
        int tagAt = DatagramDescriptor.HEADER_LENGTH + length;
        incoming.limit(tagAt);
        mac.update(incoming);
        incoming.limit(size);
        try {
            mac.doFinal(tag, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException("tag buffer too small", e);
        }
        int difference = 0;
        for (int i = 0; i < DatagramDescriptor.TAG_LENGTH; i++) {
            difference |= tag[i] ^ incoming.get(tagAt + i);
        }
        if (difference != 0) {
            fabric.netCounters().countAuthenticationFailure();
            refuse(
                    source,
                    "its tag does not verify: the sender does not know the shared secret (wrong or missing "
                            + NetFabricProvider.SECRET_OPTION + ")");
            return;
        }
        if (incoming.getLong(DatagramDescriptor.DESTINATION_NODE_OFFSET) != fabric.node()) {
            return; // for a node that used to listen here
        }
        NetQueuePair target = fabric.queuePair(incoming.getInt(DatagramDescriptor.DESTINATION_QPN_OFFSET));
        if (!(target instanceof NetUdQueuePair queuePair) || queuePair.state() != QueuePairState.READY) {
            return; // no such UD queue pair (closed?): dropped, as a UD NIC would
        }
        long sourceNode = incoming.getLong(DatagramDescriptor.SOURCE_NODE_OFFSET);
        int sourceQpn = incoming.getInt(DatagramDescriptor.SOURCE_QPN_OFFSET);
        if (!queuePair.takeReceive()) {
            queuePair.countReceiveMissed();
            return;
        }
        PostedReceives.Claimed<NetMemoryRegion> claimed = queuePair.claimed;
        if (claimed.length < length) {
            queuePair.completeReceive(
                    CompletionStatus.LOCAL_LENGTH_ERROR, Opcode.RECEIVE, 0, 0, false, sourceNode, sourceQpn);
            return;
        }
        MemorySegment segment = claimed.region.segment();
        place(segment, claimed.offset, length);
        queuePair.completeReceive(CompletionStatus.SUCCESS, Opcode.RECEIVE, length, 0, false, sourceNode, sourceQpn);
    }

    /** Copies the payload into the receive buffer, its last 8-byte word last with release. */
    private void place(MemorySegment segment, long offset, int length) {
        if (length == 0) {
            return;
        }
        int head = length - Math.min(8, length);
        MemorySegment payload = incomingSegment;
        if (head > 0) {
            MemorySegment.copy(payload, DatagramDescriptor.HEADER_LENGTH, segment, offset, head);
        }
        VarHandle.releaseFence();
        long last = offset + head;
        if (length >= 8 && ((segment.address() + last) & 7) == 0) {
            LONG.setRelease(
                    segment,
                    last,
                    payload.get(ValueLayout.JAVA_LONG_UNALIGNED, DatagramDescriptor.HEADER_LENGTH + head));
        } else {
            MemorySegment.copy(payload, DatagramDescriptor.HEADER_LENGTH + head, segment, last, length - head);
        }
    }

    /** Logs the first refusal per source address (then counts silently), and drops the datagram. */
    private void refuse(SocketAddress source, String reason) {
        if (refusedSources.size() < 1024 && refusedSources.add(source)) {
            LOG.log(
                    Level.WARNING,
                    "fabric node {0}: refused a UDP datagram from {1}: {2} (further datagrams from"
                            + " there are dropped silently)",
                    fabric.nodeName(),
                    source,
                    reason);
        }
    }
}
