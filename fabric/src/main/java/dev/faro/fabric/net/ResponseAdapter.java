package dev.faro.fabric.net;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairState;
import java.lang.foreign.ValueLayout;

/**
 * The initiator side of RC, on dialed connections: decodes the target's responses and completes the queue pair's
 * requests in posting order. An ACK (or any response) for psn n completes every request up to n; a READ_RESPONSE
 * lands its bytes in the READ's local buffer before its completion; a NAK fails psn (and moves the queue pair to
 * ERROR) or, for "receiver not ready", rewinds the queue pair to resend from psn (see {@link Responder}).
 *
 * <p>Responses for a queue pair that is closed, in ERROR or connected elsewhere are dropped: whatever they answer was
 * already completed. Data path: allocation-free; progress thread.
 */
final class ResponseAdapter implements FrameHandler {

    private static final int NONE = 0;
    private static final int ACK = 1;
    private static final int NAK = 2;
    private static final int READ = 3;
    private static final int ATOMIC = 4;

    private final NetFabric fabric;

    ResponseAdapter(NetFabric fabric) {
        this.fabric = fabric;
    }

    @Override
    public void onHeader(Connection connection, FrameDescriptor.Header header, long nowNs) {
        connection.action = NONE;
        connection.frameQueuePair = null;
        byte type = header.type;
        if (type == FrameDescriptor.HEARTBEAT) {
            return;
        }
        if (type == FrameDescriptor.GOODBYE) {
            connection.remote.saidGoodbye = true;
            return;
        }
        if (!FrameDescriptor.isResponse(type)) {
            connection.agent.nodes.onConnectionFailed(
                    connection, "the peer sent frame type " + type + " on its response" + " connection");
            return;
        }
        NetRcQueuePair queuePair = fabric.rcQueuePair(header.qpn);
        if (queuePair == null
                || queuePair.state() != QueuePairState.READY
                || queuePair.remote != connection.remote
                || !queuePair.isOutstanding(header.psn)) {
            return; // already completed (closed, flushed) or not ours: drop
        }
        connection.frameQueuePair = queuePair;
        switch (type) {
            case FrameDescriptor.ACK -> connection.action = ACK;
            case FrameDescriptor.NAK -> connection.action = NAK;
            case FrameDescriptor.READ_RESPONSE -> {
                SendSlot slot = queuePair.slot(header.psn);
                if (slot.opcode != Opcode.READ || slot.length != header.payloadLength) {
                    connection.agent.nodes.onConnectionFailed(
                            connection,
                            "the peer answered psn " + header.psn + " with " + header.payloadLength
                                    + " bytes read, which is no READ of that length");
                    return;
                }
                queuePair.completeThrough(header.psn - 1);
                connection.action = READ;
                if (slot.length > 0) {
                    connection.sinkTo(slot.local, slot.localOffset, slot.length);
                }
            }
            case FrameDescriptor.ATOMIC_RESPONSE -> connection.action = ATOMIC;
            default -> throw new IllegalStateException("type=" + type);
        }
    }

    @Override
    public void onFrame(Connection connection, FrameDescriptor.Header header, long nowNs) {
        NetRcQueuePair queuePair = connection.frameQueuePair;
        connection.frameQueuePair = null;
        switch (connection.action) {
            case NONE -> {}
            case ACK, READ -> queuePair.completeThrough(header.psn);
            case ATOMIC -> {
                SendSlot slot = queuePair.slot(header.psn);
                if (slot.opcode.isAtomic()) {
                    queuePair.completeThrough(header.psn - 1);
                    slot.local.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, slot.localOffset, header.value);
                }
                queuePair.completeThrough(header.psn);
            }
            case NAK -> {
                int status = header.status;
                if (status <= 0 || status >= CompletionStatus.values().length) {
                    connection.agent.nodes.onConnectionFailed(connection, "the peer sent a NAK with status " + status);
                } else if (status == CompletionStatus.RECEIVER_NOT_READY_RETRY_EXCEEDED.ordinal()) {
                    queuePair.onReceiverNotReady(header.psn, nowNs);
                } else {
                    queuePair.onNak(header.psn, CompletionStatus.fromOrdinal(status));
                }
            }
            default -> throw new IllegalStateException("action=" + connection.action);
        }
    }
}
