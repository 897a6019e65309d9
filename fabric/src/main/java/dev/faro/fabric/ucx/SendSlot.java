package dev.faro.fabric.ucx;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.PostedSend;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.MemorySegment;
import org.openucx.jucx.UcxCallback;
import org.openucx.jucx.ucp.UcpRequest;

/**
 * One entry of a queue pair's send queue on the {@code ucx} fabric: a {@link PostedSend} (the copy of a posted
 * request) plus what the progress thread tracks while UCX works on it, and the {@link #callback} UCX reports its
 * operations to. The message header ({@link MessageDescriptor}) has its own native buffer, alive until the request
 * completes.
 *
 * <p>Threads: the request fields as in {@link PostedSend}; the tracking fields and the callback belong to the
 * progress thread (UCX calls callbacks from {@code ucp_worker_progress} or inline from the call that issued the
 * operation, both on the progress thread).
 */
final class SendSlot extends PostedSend<UcxMemoryRegion, UcxRemoteKey> {

    final MemorySegment header;

    // Progress thread only.
    /** UCX operations issued and not yet called back. */
    int pendingCallbacks;
    /** The flush epoch of this request's puts (0: none). */
    long epoch;
    /** 0 not issued, 1 puts issued (WRITE_WITH_IMMEDIATE: waiting for the flush), 2 message sent. */
    int phase;
    /** Whether the target answered (messages and atomics). */
    boolean answered;
    /** The outcome known so far; null while nothing failed. */
    CompletionStatus status;
    /** An atomic's old value from the target. */
    long oldValue;
    /** A UCX operation of this request failed. */
    boolean transportFailed;

    /** Passed to every UCX operation issued for this slot's request: counts it done, and notes a failure. */
    final UcxCallback callback = new UcxCallback() {
        @Override
        public void onSuccess(UcpRequest request) {
            pendingCallbacks--;
        }

        @Override
        public void onError(int ucsStatus, String message) {
            pendingCallbacks--;
            transportFailed = true;
        }
    };

    SendSlot(MemorySegment inlineBytes, MemorySegment header) {
        super(inlineBytes, UcxRemoteKey.class);
        this.header = header;
    }

    @Override
    protected void filled(WorkRequest request) {
        pendingCallbacks = 0;
        epoch = 0;
        phase = 0;
        answered = false;
        status = null;
        oldValue = 0;
        transportFailed = false;
    }

    /** The address of the request's local bytes (inline buffer or registered region). */
    long localAddress() {
        if (inline) {
            return inlineBytes.address();
        }
        return local == null ? inlineBytes.address() : local.address() + localOffset;
    }
}
