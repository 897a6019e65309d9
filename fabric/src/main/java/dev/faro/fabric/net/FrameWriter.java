package dev.faro.fabric.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The outbound half of a {@link Connection}: frames are appended to {@link #out}; payloads up to
 * {@link #COPY_THRESHOLD} bytes are copied in, larger ones are written from registered memory with a gathering write
 * ({@link #pendingPayload}), and nothing is appended until such a payload is out. Consecutive ACKs of one queue pair
 * are merged in place. A write that fills the socket's buffer blocks further writes until the selector reports the
 * socket writable ({@link #writeBlocked}), so a stream moves in large writes, as a blocking writer would.
 *
 * <p>Data path: allocation-free after construction. Progress thread only.
 */
final class FrameWriter {

    static final int OUT_CAPACITY = 256 * 1024;
    static final int COPY_THRESHOLD = 8 * 1024;

    private final Connection connection;
    private final ByteBuffer out = ByteBuffer.allocateDirect(OUT_CAPACITY).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer[] gather = new ByteBuffer[2];
    private ByteBuffer pendingPayload;
    private NetMemoryRegion pendingRegion;
    private final RegionViews outViews = new RegionViews();
    private int lastAckPosition = -1;
    /**
     * The socket's send buffer was full at the last write: no more writes until the selector reports it writable.
     * Retrying at once would move a few kilobytes per system call; waiting for the kernel's "writable" (a good share
     * of the buffer free) moves large chunks, as a blocking writer would.
     */
    private boolean writeBlocked;
    /** When anything was last written (heartbeats go out on quiet connections). */
    long lastWriteNs;

    FrameWriter(Connection connection, long nowNs) {
        this.connection = connection;
        this.lastWriteNs = nowNs;
        gather[0] = out;
    }

    /** Whether a frame with a header and a copied payload of up to {@link #COPY_THRESHOLD} bytes fits now. */
    boolean canTakeFrame() {
        return hasRoom(FrameDescriptor.HEADER_LENGTH + COPY_THRESHOLD);
    }

    private boolean hasRoom(int bytes) {
        return pendingPayload == null && out.remaining() >= bytes;
    }

    /** Appends a request frame for {@code slot}; false if it does not fit now. Dialer, READY. */
    boolean emitRequest(NetRcQueuePair queuePair, SendSlot slot) {
        byte type;
        int payload;
        long value = 0;
        switch (slot.opcode) {
            case SEND -> {
                type = FrameDescriptor.SEND;
                payload = slot.length;
            }
            case WRITE -> {
                type = FrameDescriptor.WRITE;
                payload = slot.length;
            }
            case WRITE_WITH_IMMEDIATE -> {
                type = FrameDescriptor.WRITE_WITH_IMMEDIATE;
                payload = slot.length;
            }
            case READ -> {
                type = FrameDescriptor.READ_REQUEST;
                payload = 0;
                value = slot.length;
            }
            case FETCH_ADD -> {
                type = FrameDescriptor.FETCH_ADD;
                payload = FrameDescriptor.ATOMIC_PAYLOAD_LENGTH;
            }
            case COMPARE_SWAP -> {
                type = FrameDescriptor.COMPARE_SWAP;
                payload = FrameDescriptor.ATOMIC_PAYLOAD_LENGTH;
            }
            default -> throw new IllegalStateException("opcode=" + slot.opcode + " cannot be sent");
        }
        boolean copied = payload <= COPY_THRESHOLD;
        if (!hasRoom(FrameDescriptor.HEADER_LENGTH + (copied ? payload : 0))) {
            return false;
        }
        NetRemoteKey key = slot.remoteKey;
        byte flags = slot.signaled || slot.sequence == queuePair.posted() ? FrameDescriptor.FLAG_ACK_REQUESTED : 0;
        FrameDescriptor.put(
                out,
                type,
                (byte) 0,
                flags,
                payload,
                queuePair.peerQpn,
                queuePair.queuePairNumber(),
                slot.immediate,
                slot.sequence,
                slot.remoteOffset,
                key == null ? 0 : key.node,
                key == null ? 0 : key.regionId,
                key == null ? 0 : key.key,
                value);
        lastAckPosition = -1;
        if (type == FrameDescriptor.FETCH_ADD || type == FrameDescriptor.COMPARE_SWAP) {
            out.putLong(slot.compareOrAdd).putLong(slot.swap);
        } else if (payload > 0) {
            if (slot.inline) {
                ByteBuffer source = slot.inlineView;
                source.clear().limit(payload);
                out.put(source);
            } else if (copied) {
                out.put(connection.agent.copyViews.view(slot.local, slot.localOffset, payload));
            } else {
                setPendingPayload(slot.local, slot.localOffset, payload);
            }
        }
        return true;
    }

    private void setPendingPayload(NetMemoryRegion region, long offset, int length) {
        if (!region.pin()) {
            throw new IllegalStateException("a pinned request's region was freed: " + region);
        }
        pendingRegion = region;
        pendingPayload = outViews.view(region, offset, length);
        gather[1] = pendingPayload;
        connection.updateInterest();
    }

    /** Appends an ACK, merged into the previous frame when that is an unsent ACK of the same queue pair. */
    void appendAck(int qpn, int sourceQpn, long psn) {
        if (lastAckPosition >= 0 && out.getInt(lastAckPosition + FrameDescriptor.QPN_OFFSET) == qpn) {
            out.putLong(lastAckPosition + FrameDescriptor.PSN_OFFSET, psn);
            return;
        }
        int at = out.position();
        FrameDescriptor.putShort(out, FrameDescriptor.ACK, (byte) 0, qpn, sourceQpn, psn, 0);
        lastAckPosition = at;
    }

    void appendNak(int qpn, int sourceQpn, long psn, byte status) {
        FrameDescriptor.putShort(out, FrameDescriptor.NAK, status, qpn, sourceQpn, psn, 0);
        lastAckPosition = -1;
    }

    void appendAtomicResponse(int qpn, int sourceQpn, long psn, long oldValue) {
        FrameDescriptor.putShort(out, FrameDescriptor.ATOMIC_RESPONSE, (byte) 0, qpn, sourceQpn, psn, oldValue);
        lastAckPosition = -1;
    }

    /** Appends a READ's response with the region's bytes as they are now; the caller keeps its own pin. */
    void appendReadResponse(int qpn, int sourceQpn, long psn, NetMemoryRegion region, long offset, int length) {
        FrameDescriptor.put(
                out, FrameDescriptor.READ_RESPONSE, (byte) 0, length, qpn, sourceQpn, 0, psn, 0, 0, 0, 0, 0);
        lastAckPosition = -1;
        if (length <= COPY_THRESHOLD) {
            out.put(connection.agent.copyViews.view(region, offset, length));
        } else {
            setPendingPayload(region, offset, length);
        }
    }

    /** Appends a handshake frame; always fits (the buffer is empty during the handshake). */
    void appendHandshake(byte type, byte[] payload) {
        FrameDescriptor.put(out, type, (byte) 0, payload.length, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        out.put(payload);
    }

    /** A heartbeat when nothing was sent for {@code intervalNs}. Returns 1 if one was appended. */
    int heartbeatIfQuiet(long nowNs, long intervalNs) {
        if (nowNs - lastWriteNs < intervalNs || !hasRoom(FrameDescriptor.HEADER_LENGTH) || out.position() > 0) {
            return 0;
        }
        FrameDescriptor.putShort(out, FrameDescriptor.HEARTBEAT, (byte) 0, 0, 0, 0, 0);
        lastAckPosition = -1;
        return 1;
    }

    /** Closing: {@link #appendAck} if a frame header fits now (best effort, as everything at close). */
    void appendAckIfRoom(int qpn, int sourceQpn, long psn) {
        if (hasRoom(FrameDescriptor.HEADER_LENGTH)) {
            appendAck(qpn, sourceQpn, psn);
        }
    }

    /**
     * Best effort at close: a GOODBYE behind everything buffered (every answer of this node), so the peer logs an
     * orderly close rather than a failure.
     */
    void appendGoodbye() {
        if (connection.phase == Connection.Phase.READY && hasRoom(FrameDescriptor.HEADER_LENGTH)) {
            FrameDescriptor.putShort(out, FrameDescriptor.GOODBYE, (byte) 0, 0, 0, 0, 0);
            lastAckPosition = -1;
        }
    }

    /**
     * Closing: {@link #flush} even if the last write found the socket full (there is no later turn to wait for the
     * selector's "writable"). Returns 1 if anything was written.
     */
    int flushAtClose(long nowNs) {
        writeBlocked = false;
        return flush(nowNs);
    }

    /** The selector reports the socket writable: writes again. */
    int onWritable(long nowNs) {
        writeBlocked = false;
        return flush(nowNs);
    }

    /** Writes what is buffered as far as the socket takes it. Returns 1 if anything was written. */
    int flush(long nowNs) {
        Connection.Phase phase = connection.phase;
        if (writeBlocked
                || phase == Connection.Phase.CLOSED
                || phase == Connection.Phase.CONNECTING
                || (out.position() == 0 && pendingPayload == null)) {
            return 0;
        }
        out.flip();
        long written;
        try {
            written = pendingPayload == null ? connection.channel.write(out) : connection.channel.write(gather, 0, 2);
        } catch (IOException e) {
            out.compact();
            if (connection.dialer && connection.isReady()) {
                connection.onReadable(nowNs); // answers that came before the failure complete their requests first
            }
            connection.agent.nodes.onConnectionFailed(connection, "write failed: " + e.getMessage());
            return 1;
        }
        out.compact();
        lastAckPosition = -1;
        if (written > 0) {
            lastWriteNs = nowNs;
        }
        if (pendingPayload != null && !pendingPayload.hasRemaining() && out.position() == 0) {
            pendingRegion.unpin();
            pendingRegion = null;
            pendingPayload = null;
            gather[1] = null;
        }
        writeBlocked = hasOutput();
        connection.updateInterest();
        return written > 0 ? 1 : 0;
    }

    boolean hasOutput() {
        return out.position() > 0 || pendingPayload != null;
    }

    /** Releases the pinned payload, if any (the connection closed). */
    void release() {
        if (pendingRegion != null) {
            pendingRegion.unpin();
            pendingRegion = null;
            pendingPayload = null;
            gather[1] = null;
        }
        outViews.clear();
    }
}
