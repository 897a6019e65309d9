package dev.faro.fabric.net;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.QueuePairType;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.WorkRequest;
import dev.faro.fabric.spi.QueuePairChecks;

/**
 * An RC queue pair of the {@code net} fabric. As initiator it hands requests to the node's progress thread, which
 * sends them as frames on the connection dialed to the peer node (psn = post sequence) and completes them when the
 * peer answers ({@link ResponseAdapter}); as target its requests are served by the progress thread ({@link
 * Responder}), which tracks the next expected psn.
 *
 * <pre>
 *  initiator state (progress thread):  nextToComplete &lt;= nextToTransmit &lt;= posted + 1
 *     [nextToComplete, nextToTransmit)  sent, waiting for a response
 *     [nextToTransmit, posted]          waiting to be sent (or for a receiver-not-ready retry, retryAtNs)
 *  target state (progress thread):      expectedPsn, the next request to take from the peer
 * </pre>
 *
 * <p>Data path: allocation-free after {@link #connect}.
 */
final class NetRcQueuePair extends NetQueuePair implements RcQueuePair {

    /** How long a receiver-not-ready retry first waits; it doubles up to {@link #MAX_RETRY_DELAY_NS}. */
    static final long MIN_RETRY_DELAY_NS = 100_000;

    static final long MAX_RETRY_DELAY_NS = 10_000_000;
    /** Requests one queue pair may put on its connection per progress turn, so queue pairs share it fairly. */
    private static final int TRANSMIT_BUDGET = 16;

    /** The peer, set once by connect before the state becomes READY (volatile write), read after reading the state. */
    private NetQueuePairAddress peerAddress;

    long peerNode;
    int peerQpn;

    // Progress thread only.
    /** The peer's node, bound by the progress thread when it handles the connect. */
    RemoteNode remote;

    long nextToTransmit = 1;
    long expectedPsn = 1;
    private long retryPsn;
    private long retryDeadlineNs;
    private long retryDelayNs;
    long retryAtNs;

    NetRcQueuePair(NetFabric fabric, int qpn, QueuePairConfig config) {
        super(fabric, qpn, config, QueuePairType.RC);
    }

    @Override
    public QueuePairAddress peer() {
        return state() == QueuePairState.INIT ? null : peerAddress;
    }

    @Override
    public void connect(QueuePairAddress remoteAddress) {
        if (!(remoteAddress instanceof NetQueuePairAddress netAddress) || remoteAddress.type() != QueuePairType.RC) {
            throw QueuePairChecks.notAnRcAddress(NetFabricProvider.NAME, remoteAddress);
        }
        sendLock.lock();
        try {
            QueuePairChecks.checkConnectable(qpn, state());
            peerAddress = netAddress;
            peerNode = netAddress.node();
            peerQpn = netAddress.queuePairNumber();
            markReady();
        } finally {
            sendLock.unlock();
        }
        fabric.onConnected(this, netAddress);
    }

    @Override
    protected void validateForType(WorkRequest request) {
        QueuePairChecks.checkRcRequest(request, qpn, state(), NetRemoteKey.class, NetFabricProvider.NAME);
    }

    // --------------------------------------------------------------------------------------- progress thread only

    @Override
    boolean hasPendingPosts() {
        if (state() == QueuePairState.ERROR) {
            return nextToComplete <= posted();
        }
        Connection connection = remote == null ? null : remote.dialed;
        return retryAtNs == 0
                && nextToTransmit <= posted()
                && connection != null
                && connection.isReady()
                && connection.writer.canTakeFrame();
    }

    /** Puts waiting requests on the peer's connection. Returns the requests sent. */
    int transmit(long nowNs) {
        if (nextToTransmit < nextToComplete) {
            nextToTransmit = nextToComplete;
        }
        if (remote == null || !isReady()) {
            return 0;
        }
        Connection connection = remote.dialed;
        if (connection == null || !connection.isReady()) {
            return 0;
        }
        if (retryAtNs != 0) {
            if (nowNs - retryAtNs < 0) {
                return 0;
            }
            retryAtNs = 0;
        }
        long last = posted();
        int sent = 0;
        while (nextToTransmit <= last && sent < TRANSMIT_BUDGET) {
            if (connection.writer.emitRequest(this, slot(nextToTransmit))) {
                nextToTransmit++;
                sent++;
            } else if (connection.writer.flush(nowNs) == 0 || !connection.writer.canTakeFrame()) {
                break; // the socket is full: the selector says when it drains
            }
            // a large payload went out in this turn's write: put the next frame behind it without a select
        }
        return sent;
    }

    /** Whether psn was sent and not yet completed. */
    boolean isOutstanding(long psn) {
        return psn >= nextToComplete && psn < nextToTransmit;
    }

    /** Completes, successfully, every sent request up to {@code psn}. */
    void completeThrough(long psn) {
        long last = Math.min(psn, nextToTransmit - 1);
        while (nextToComplete <= last) {
            completeNext(CompletionStatus.SUCCESS);
        }
        if (retryPsn != 0 && retryPsn < nextToComplete) {
            retryPsn = 0;
        }
    }

    /** The target had no receive for psn: resend from psn after a delay, or give up after the timeout. */
    void onReceiverNotReady(long psn, long nowNs) {
        completeThrough(psn - 1);
        fabric.netCounters().countReceiverNotReady();
        if (retryPsn != psn) {
            retryPsn = psn;
            retryDeadlineNs = nowNs + fabric.config().receiverNotReadyTimeout().toNanos();
            retryDelayNs = MIN_RETRY_DELAY_NS;
        } else if (nowNs - retryDeadlineNs >= 0) {
            fail(CompletionStatus.RECEIVER_NOT_READY_RETRY_EXCEEDED);
            return;
        }
        nextToTransmit = psn;
        retryAtNs = nowNs + retryDelayNs;
        retryDelayNs = Math.min(2 * retryDelayNs, MAX_RETRY_DELAY_NS);
    }

    /** The target refused psn: it fails, and so does the queue pair. */
    void onNak(long psn, CompletionStatus status) {
        completeThrough(psn - 1);
        fail(status);
    }

    /** The oldest outstanding request fails with {@code status}; the queue pair enters ERROR first. */
    private void fail(CompletionStatus status) {
        if (markError()) {
            completeNext(status);
            drainAfterError(CompletionStatus.FLUSHED);
        }
    }

    @Override
    void onEnterError() {
        retryAtNs = 0;
        retryPsn = 0;
    }

    @Override
    public String toString() {
        return "NetRcQueuePair[qpn=" + qpn + ", state=" + state() + ", peer=" + peerAddress + "]";
    }
}
