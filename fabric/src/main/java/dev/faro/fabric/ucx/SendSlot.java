package dev.faro.fabric.ucx;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.MemorySegment;
import org.openucx.jucx.UcxCallback;
import org.openucx.jucx.ucp.UcpRequest;

/**
 * One entry of a queue pair's send queue: a copy of a posted {@link WorkRequest} plus what the progress thread tracks
 * while UCX works on it. Inline payloads are copied into this slot's own native buffer; the message header
 * ({@link MessageDescriptor}) has one too, alive until the request completes.
 *
 * <p>Threads: the request fields are written by a posting thread under the queue pair's send lock before it
 * publishes the post sequence (release) and read by the progress thread after reading it (acquire); the tracking
 * fields and the callback belong to the progress thread (UCX calls callbacks from {@code ucp_worker_progress} or
 * inline from the call that issued the operation, both on the progress thread).
 */
final class SendSlot extends UcxCallback {

    long sequence;
    long requestId;
    Opcode opcode;
    boolean signaled;
    /** The registered local buffer, pinned from post to completion; null for inline and zero-length requests. */
    UcxMemoryRegion local;
    long localOffset;
    int length;
    boolean inline;
    UcxRemoteKey remoteKey;
    long remoteOffset;
    int immediate;
    long compareOrAdd;
    long swap;

    final MemorySegment inlineBytes;
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

    SendSlot(MemorySegment inlineBytes, MemorySegment header) {
        this.inlineBytes = inlineBytes;
        this.header = header;
    }

    void fill(WorkRequest request, UcxMemoryRegion pinnedLocal, long newSequence) {
        sequence = newSequence;
        requestId = request.requestId();
        opcode = request.opcode();
        signaled = request.signaled();
        length = request.length();
        inline = request.isInline();
        local = pinnedLocal;
        localOffset = request.localOffset();
        if (inline && length > 0) {
            MemorySegment.copy(request.inlineData(), 0, inlineBytes, 0, length);
        }
        remoteKey = request.remoteKey() instanceof UcxRemoteKey key ? key : null;
        remoteOffset = request.remoteOffset();
        immediate = request.immediate();
        compareOrAdd = request.compareOrAdd();
        swap = request.swap();
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

    void clear() {
        local = null;
        remoteKey = null;
    }

    int completionLength() {
        return opcode.isAtomic() ? 8 : length;
    }

    @Override
    public void onSuccess(UcpRequest request) {
        pendingCallbacks--;
    }

    @Override
    public void onError(int ucsStatus, String message) {
        pendingCallbacks--;
        transportFailed = true;
    }
}
