package dev.faro.fabric.ucx;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.WorkRequest;
import dev.faro.fabric.spi.PostedSend;
import java.lang.foreign.MemorySegment;

/**
 * One entry of a queue pair's send queue on the {@code ucx} fabric: a {@link PostedSend} (the copy of a posted
 * request) plus what the progress thread tracks while UCX works on it, and the {@link #callback} its UCX operations
 * report to ({@link UcpRequests}). The message header ({@link MessageDescriptor}) has its own native buffer, alive until the request
 * completes.
 *
 * <p>Threads: the request fields as in {@link PostedSend}; the tracking fields and the callback belong to the
 * progress thread (completions are reported inline from the call that issued the operation or from
 * {@link UcpRequests#poll}, both on the progress thread).
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

    /**
     * Passed to every UCX operation issued for this slot's request, tagged with its {@link #sequence}: counts it done,
     * and notes a failure. An operation of an earlier use of the slot (failed and reused) is ignored.
     */
    final UcpRequests.Completion callback = new UcpRequests.OneAtATime() { // one UCX operation at a time per slot
                @Override
                public void completed(long issuedFor, int ucsStatus) {
                    operationDone(issuedFor, ucsStatus);
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

    private void operationDone(long issuedFor, int ucsStatus) {
        if (issuedFor != sequence) {
            return;
        }
        pendingCallbacks--;
        if (ucsStatus != UcpRequests.OK) {
            transportFailed = true;
        }
    }

    /** The {@code ucp_mem_h} of the request's local bytes if they are in a registered region (0: inline). */
    long localMemoryHandle() {
        return inline || local == null ? 0 : local.memoryHandle;
    }

    /** The address of the request's local bytes (inline buffer or registered region). */
    long localAddress() {
        if (inline) {
            return inlineBytes.address();
        }
        return local == null ? inlineBytes.address() : local.address() + localOffset;
    }
}
