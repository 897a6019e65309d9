package dev.faro.fabric.net;

import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * One entry of a queue pair's send queue: a copy of a posted {@link WorkRequest}, taken by the posting thread and
 * read by the progress thread. Inline payloads are copied into this slot's own buffer, so the caller may reuse its
 * bytes as soon as {@code postSend} returns.
 *
 * <p>Threads: written by a posting thread under the queue pair's send lock before it publishes the post sequence
 * (release); read by the progress thread after it reads that sequence (acquire). A slot is rewritten only after its
 * request's completion (or a later one's) has been polled, which the progress thread publishes after its last read.
 */
final class SendSlot {

    long sequence;
    long requestId;
    Opcode opcode;
    boolean signaled;
    /** The registered local buffer, pinned from post to completion; null for inline and zero-length requests. */
    NetMemoryRegion local;
    long localOffset;
    int length;
    boolean inline;
    NetRemoteKey remoteKey;
    long remoteOffset;
    int immediate;
    long compareOrAdd;
    long swap;
    NetQueuePairAddress destination;

    /** This slot's inline bytes; {@link #inlineView} is a view of the same memory for sockets. */
    final MemorySegment inlineBytes;
    final ByteBuffer inlineView;

    SendSlot(MemorySegment inlineBytes) {
        this.inlineBytes = inlineBytes;
        this.inlineView = inlineBytes.asByteBuffer();
    }

    /** Copies {@code request} into this slot (inline bytes too); the caller validated it and pinned its region. */
    void fill(WorkRequest request, NetMemoryRegion pinnedLocal, long newSequence) {
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
        remoteKey = request.remoteKey() instanceof NetRemoteKey key ? key : null;
        remoteOffset = request.remoteOffset();
        immediate = request.immediate();
        compareOrAdd = request.compareOrAdd();
        swap = request.swap();
        destination = request.destination() instanceof NetQueuePairAddress address ? address : null;
    }

    /** Drops the references once the request completed (the region's pin is released by the caller). */
    void clear() {
        local = null;
        remoteKey = null;
        destination = null;
    }

    /** The bytes an atomic reports, or the request's length. */
    int completionLength() {
        return opcode.isAtomic() ? 8 : length;
    }
}
