package dev.faro.fabric.net;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairState;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * The target side of RC, on accepted connections: the part of the NIC that serves peers' requests. It checks the
 * target queue pair (connected back to the sender?), the request's sequence, the key, bounds and rights before a byte
 * of payload lands; places SEND payloads in the oldest posted receive and WRITE payloads in the addressed region; runs
 * READs and atomics on registered memory; and answers with ACK, NAK, READ_RESPONSE or ATOMIC_RESPONSE.
 *
 * <h2>Receiver not ready (go-back-N)</h2>
 * <pre>
 *  initiator                                   responder (expected psn = n)
 *   SEND n, WRITE n+1, SEND n+2 ─────────────►  no receive for n: NAK(n, RNR), discard n's payload
 *                                              n+1, n+2: psn != expected, discarded silently
 *   ◄── NAK(n, RNR); counts a retry; waits;
 *   SEND n, WRITE n+1, SEND n+2 again ───────►  (receive posted meanwhile) place n, n+1, n+2; ACK n+2
 * </pre>
 * The initiator keeps every unacknowledged request, so a retransmission resends the same bytes; it gives up with
 * RECEIVER_NOT_READY_RETRY_EXCEEDED once the receiver-not-ready timeout has passed since the first NAK of psn n.
 *
 * <h2>Errors</h2>
 * A request to a queue pair that is missing, not READY or not connected to the sender gets NAK(REMOTE_OPERATION_ERROR);
 * a bad key, bound or right NAK(REMOTE_ACCESS_ERROR), and nothing changes at the target; a SEND larger than the receive
 * it found completes that receive with LOCAL_LENGTH_ERROR, moves the target queue pair to ERROR and gets
 * NAK(REMOTE_INVALID_REQUEST).
 *
 * <p>A READ's response is built when the READ is taken; no later request of the connection is taken before that
 * response is written, so a READ sees exactly the writes that precede it. Data path: allocation-free; progress thread.
 */
final class Responder implements FrameHandler {

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private static final int NONE = 0;
    private static final int NAK = 1;
    private static final int SEND = 2;
    private static final int WRITE = 3;
    private static final int READ = 4;
    private static final int ATOMIC = 5;
    private static final int LENGTH_ERROR = 6;

    private final NetFabric fabric;
    private byte nakStatus;

    Responder(NetFabric fabric) {
        this.fabric = fabric;
    }

    @Override
    public void onHeader(Connection connection, FrameDescriptor.Header header, long nowNs) {
        connection.action = NONE;
        connection.frameQueuePair = null;
        connection.frameRegion = null;
        byte type = header.type;
        if (type == FrameDescriptor.HEARTBEAT) {
            return;
        }
        if (type == FrameDescriptor.GOODBYE) {
            connection.remote.saidGoodbye = true;
            return;
        }
        if (!FrameDescriptor.isRequest(type)) {
            connection.agent.nodes.onConnectionFailed(
                    connection, "the peer sent frame type " + type + " on its request" + " connection");
            return;
        }
        NetRcQueuePair queuePair = fabric.rcQueuePair(header.qpn);
        if (queuePair == null
                || queuePair.state() != QueuePairState.READY
                || queuePair.peerNode != connection.remote.node
                || queuePair.peerQpn != header.sourceQpn) {
            nak(connection, CompletionStatus.REMOTE_OPERATION_ERROR);
            return;
        }
        if (header.psn != queuePair.expectedPsn) {
            return; // after a NAK: discarded until the initiator resends expectedPsn
        }
        connection.frameQueuePair = queuePair;
        int length = header.payloadLength;
        switch (type) {
            case FrameDescriptor.SEND -> {
                if (!queuePair.takeReceive()) {
                    nak(connection, CompletionStatus.RECEIVER_NOT_READY_RETRY_EXCEEDED);
                } else if (queuePair.claimed.length < length) {
                    connection.action = LENGTH_ERROR;
                } else {
                    connection.action = SEND;
                    connection.sinkTo(queuePair.claimed.region, queuePair.claimed.offset, length);
                }
            }
            case FrameDescriptor.WRITE, FrameDescriptor.WRITE_WITH_IMMEDIATE -> {
                NetMemoryRegion region = permitted(header, Access.REMOTE_WRITE, length);
                if (region == null) {
                    nak(connection, CompletionStatus.REMOTE_ACCESS_ERROR);
                } else if (type == FrameDescriptor.WRITE_WITH_IMMEDIATE && !queuePair.takeReceive()) {
                    region.unpin();
                    nak(connection, CompletionStatus.RECEIVER_NOT_READY_RETRY_EXCEEDED);
                } else {
                    connection.action = WRITE;
                    connection.frameRegion = region;
                    connection.sinkTo(region, header.remoteOffset, length);
                }
            }
            case FrameDescriptor.READ_REQUEST -> {
                NetMemoryRegion region = header.value >= 0 && header.value <= Integer.MAX_VALUE
                        ? permitted(header, Access.REMOTE_READ, header.value)
                        : null;
                if (region == null) {
                    nak(connection, CompletionStatus.REMOTE_ACCESS_ERROR);
                } else {
                    connection.action = READ;
                    connection.frameRegion = region;
                }
            }
            case FrameDescriptor.FETCH_ADD, FrameDescriptor.COMPARE_SWAP -> {
                NetMemoryRegion region =
                        (header.remoteOffset & 7) == 0 ? permitted(header, Access.REMOTE_ATOMIC, 8) : null;
                if (region == null) {
                    nak(connection, CompletionStatus.REMOTE_ACCESS_ERROR);
                } else {
                    connection.action = ATOMIC;
                    connection.frameRegion = region;
                    connection.sinkSmall();
                }
            }
            default -> throw new IllegalStateException("type=" + type);
        }
    }

    /** The addressed region, pinned, if key, bounds and right hold; null otherwise. */
    private NetMemoryRegion permitted(FrameDescriptor.Header header, Access right, long length) {
        if (header.keyNode != fabric.node()) {
            return null; // a key of another node means nothing here
        }
        NetMemoryRegion region = fabric.region(header.regionId);
        return region != null && region.pinFor(header.rkey, right, header.remoteOffset, length) ? region : null;
    }

    private void nak(Connection connection, CompletionStatus status) {
        connection.action = NAK;
        nakStatus = (byte) status.ordinal();
    }

    @Override
    public void onFrame(Connection connection, FrameDescriptor.Header header, long nowNs) {
        NetRcQueuePair queuePair = connection.frameQueuePair;
        connection.frameQueuePair = null;
        long sourceNode = connection.remote.node;
        switch (connection.action) {
            case NONE -> {}
            case NAK -> {
                boolean retry = nakStatus == (byte) CompletionStatus.RECEIVER_NOT_READY_RETRY_EXCEEDED.ordinal();
                if (queuePair != null && !retry) {
                    queuePair.expectedPsn++; // the request is done (it failed); a retried one is not
                }
                connection.writer.appendNak(header.sourceQpn, header.qpn, header.psn, nakStatus);
            }
            case SEND -> {
                queuePair.completeReceive(
                        CompletionStatus.SUCCESS,
                        Opcode.RECEIVE,
                        header.payloadLength,
                        0,
                        false,
                        sourceNode,
                        header.sourceQpn);
                acknowledge(connection, queuePair, header);
            }
            case LENGTH_ERROR -> {
                boolean entered = queuePair.markError(); // the state before the completion that reports it
                queuePair.completeReceive(
                        CompletionStatus.LOCAL_LENGTH_ERROR, Opcode.RECEIVE, 0, 0, false, sourceNode, header.sourceQpn);
                queuePair.expectedPsn++;
                connection.writer.appendNak(header.sourceQpn, header.qpn, header.psn, (byte)
                        CompletionStatus.REMOTE_INVALID_REQUEST.ordinal());
                if (entered) {
                    queuePair.drainAfterError(CompletionStatus.FLUSHED);
                }
            }
            case WRITE -> {
                releaseFrameRegion(connection);
                if (header.type == FrameDescriptor.WRITE_WITH_IMMEDIATE) {
                    queuePair.completeReceive(
                            CompletionStatus.SUCCESS,
                            Opcode.RECEIVE_WRITE_WITH_IMMEDIATE,
                            header.payloadLength,
                            header.immediate,
                            true,
                            sourceNode,
                            header.sourceQpn);
                }
                acknowledge(connection, queuePair, header);
            }
            case READ -> {
                queuePair.expectedPsn++;
                connection.writer.appendReadResponse(
                        header.sourceQpn, header.qpn, header.psn, connection.frameRegion, header.remoteOffset, (int)
                                header.value);
                releaseFrameRegion(connection);
            }
            case ATOMIC -> {
                ByteBuffer operands = connection.small.flip();
                long compareOrAdd = operands.getLong(0);
                long swap = operands.getLong(8);
                MemorySegment segment = connection.frameRegion.segment();
                long old = header.type == FrameDescriptor.FETCH_ADD
                        ? (long) LONG.getAndAdd(segment, header.remoteOffset, compareOrAdd)
                        : (long) LONG.compareAndExchange(segment, header.remoteOffset, compareOrAdd, swap);
                releaseFrameRegion(connection);
                queuePair.expectedPsn++;
                connection.writer.appendAtomicResponse(header.sourceQpn, header.qpn, header.psn, old);
            }
            default -> throw new IllegalStateException("action=" + connection.action);
        }
    }

    private static void acknowledge(Connection connection, NetRcQueuePair queuePair, FrameDescriptor.Header header) {
        queuePair.expectedPsn++;
        if ((header.flags & FrameDescriptor.FLAG_ACK_REQUESTED) != 0) {
            connection.writer.appendAck(header.sourceQpn, header.qpn, header.psn);
        }
    }

    /**
     * Closing: acknowledges the last request {@code queuePair} took ({@code expectedPsn - 1}), on the connection it
     * came in on, before this node says GOODBYE. An initiator asks for an ACK only on signaled requests and on its last
     * one, so an unsignaled request placed just before the close may have none yet, and the peer fails whatever is
     * unanswered when this node goes. An ACK of something answered already is dropped by the initiator (no longer
     * outstanding), as is one to a queue pair in ERROR.
     */
    static void acknowledgePlaced(NetRcQueuePair queuePair) {
        RemoteNode peer = queuePair.remote;
        if (peer == null || queuePair.expectedPsn == 1 || queuePair.state() != QueuePairState.READY) {
            return;
        }
        for (Connection connection : peer.accepted) {
            if (connection.isReady()) {
                connection.writer.appendAckIfRoom(
                        queuePair.peerQpn, queuePair.queuePairNumber(), queuePair.expectedPsn - 1);
                return;
            }
        }
    }

    private static void releaseFrameRegion(Connection connection) {
        NetMemoryRegion region = connection.frameRegion;
        connection.frameRegion = null;
        if (region != null) {
            region.unpin();
        }
    }

    @Override
    public void onAbort(Connection connection) {
        NetRcQueuePair queuePair = connection.frameQueuePair;
        connection.frameQueuePair = null;
        if (queuePair != null
                && (connection.action == SEND
                        || connection.action == LENGTH_ERROR
                        || (connection.action == WRITE
                                && connection.header().type == FrameDescriptor.WRITE_WITH_IMMEDIATE))) {
            queuePair.completeReceive(CompletionStatus.FLUSHED, Opcode.RECEIVE, 0, 0, false, 0, 0);
        }
        releaseFrameRegion(connection);
    }
}
