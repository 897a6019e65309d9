package dev.faro.fabric.ucx;

import java.util.BitSet;
import org.openucx.jucx.ucp.UcpEndpoint;

/**
 * Another node as this node's progress thread sees it: one UCX endpoint to its worker (shared by every queue pair
 * connected to it), the flush epochs that order WRITEs before later messages, the regions it revoked, and liveness.
 *
 * <h2>Flush epochs</h2>
 * UCX completes a put locally (the source may be reused), not when its bytes are in the target's memory, and orders
 * puts and active messages only on the same lane. So every put is tagged with the current {@link #epoch}; an endpoint
 * flush ({@code ucp_ep_flush}) closes the epoch, and when it completes every put of that epoch is visible at the
 * target. A WRITE completes once its epoch is flushed; a message (SEND, WRITE_WITH_IMMEDIATE notification, atomic)
 * leaves only when no put issued before it is unflushed, so it never overtakes a WRITE posted before it.
 *
 * <p>Progress thread only, but for {@link #failed} (volatile, read by posting threads).
 */
final class UcxPeer implements UcpRequests.Completion {

    final long node;
    final byte[] workerAddress;
    final UcpEndpoint endpoint;
    /** The endpoint's {@code ucp_ep_h}, for {@link UcpRequests}. */
    final long endpointHandle;

    private final UcpRequests requests;
    /** Whether the endpoint was created with UCX's peer failure handling. */
    final boolean peerErrorHandling;

    /** Regions of that node that were closed: their keys are refused from then on. */
    final BitSet revoked = new BitSet();

    long epoch = 1;
    boolean dirty;
    long flushedEpoch;
    /** The latest epoch whose flush failed: its puts (and earlier unflushed ones) may not have landed. */
    long failedEpoch;

    long lastHeardNs;
    long lastSentNs;
    volatile boolean failed;
    /** Why it failed, for logs. */
    String failure;

    UcxPeer(
            long node,
            byte[] workerAddress,
            UcpEndpoint endpoint,
            boolean peerErrorHandling,
            UcpRequests requests,
            long nowNs) {
        this.node = node;
        this.workerAddress = workerAddress;
        this.endpoint = endpoint;
        this.endpointHandle = endpoint.getNativeId();
        this.requests = requests;
        this.peerErrorHandling = peerErrorHandling;
        this.lastHeardNs = nowNs;
        this.lastSentNs = nowNs;
    }

    /** Whether every put issued so far is known to be visible at the target. */
    boolean allFlushed() {
        return !dirty && flushedEpoch >= epoch - 1;
    }

    /** Closes the current epoch with an endpoint flush if it has puts. Returns 1 if a flush was issued. */
    int requestFlush() {
        if (!dirty || failed) {
            return 0;
        }
        dirty = false;
        long closing = epoch++;
        requests.flush(this, this, closing);
        return 1;
    }

    /** Marks a put issued in the current epoch; returns the epoch. */
    long putIssued() {
        dirty = true;
        return epoch;
    }

    void onFlushed(long closedEpoch) {
        if (closedEpoch > flushedEpoch) {
            flushedEpoch = closedEpoch;
        }
    }

    /** A flush finished ({@link UcpRequests}: the tag is the epoch it closed). */
    @Override
    public void completed(long closedEpoch, int status) {
        if (status != UcpRequests.OK && closedEpoch > failedEpoch) {
            failedEpoch = closedEpoch; // its WRITEs complete with RETRY_EXCEEDED; the error handler fails the peer
        }
        onFlushed(closedEpoch);
    }

    @Override
    public String toString() {
        return "UcxPeer[" + Long.toHexString(node) + (failed ? ", failed: " + failure : "") + "]";
    }
}
