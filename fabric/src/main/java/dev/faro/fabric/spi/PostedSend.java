package dev.faro.fabric.spi;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.MemorySegment;

/**
 * One entry of a provider's send queue: a copy of a posted {@link WorkRequest} that the provider's progress thread
 * works from, with the request's local region pinned from post to completion. Inline payloads are copied into the
 * entry's own buffer, so the caller may reuse its bytes as soon as {@code postSend} returns. For providers whose
 * progress thread works on such copies (net, ucx); a subclass adds what its provider tracks per request.
 *
 * <p>Threads: the request fields are written by a posting thread under the queue pair's send lock before it publishes
 * the post sequence (release) and read by the progress thread after it reads that sequence (acquire). An entry is
 * rewritten only after its request's completion (or a later one's) has been polled. The fields are plain and public so
 * that a provider's data path reads them without calls; only its own classes see an entry.
 *
 * @param <R> the provider's region type
 * @param <K> the provider's remote key type
 */
public abstract class PostedSend<R extends AbstractMemoryRegion, K extends RemoteKey> {

    public long sequence;
    public long requestId;
    public Opcode opcode;
    public boolean signaled;
    /** The registered local buffer, pinned from post to completion; null for inline and zero-length requests. */
    public R local;

    public long localOffset;
    public int length;
    public boolean inline;
    /** The request's remote key if it is the provider's own type, else null. */
    public K remoteKey;

    public long remoteOffset;
    public int immediate;
    public long compareOrAdd;
    public long swap;

    /** This entry's inline bytes. */
    public final MemorySegment inlineBytes;

    private final Class<K> keyType;

    protected PostedSend(MemorySegment inlineBytes, Class<K> keyType) {
        this.inlineBytes = inlineBytes;
        this.keyType = keyType;
    }

    /**
     * Copies {@code request} into this entry (inline bytes too), then lets the subclass copy or reset its own part;
     * the caller validated the request and pinned its region.
     */
    public final void fill(WorkRequest request, R pinnedLocal, long newSequence) {
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
        RemoteKey key = request.remoteKey();
        remoteKey = keyType.isInstance(key) ? keyType.cast(key) : null;
        remoteOffset = request.remoteOffset();
        immediate = request.immediate();
        compareOrAdd = request.compareOrAdd();
        swap = request.swap();
        filled(request);
    }

    /** The subclass's part of {@link #fill}; runs last. */
    protected abstract void filled(WorkRequest request);

    /** Drops the references once the request completed (the region's pin is released by the caller). */
    public void clear() {
        local = null;
        remoteKey = null;
    }

    /** Drops the references and releases the local region's pin: the request completed or never will. */
    public final void release() {
        R pinned = local;
        clear();
        if (pinned != null) {
            pinned.unpin();
        }
    }

    /** The bytes an atomic reports, or the request's length. */
    public final int completionLength() {
        return opcode.isAtomic() ? 8 : length;
    }

    /** The length a completion with {@code status} reports: {@link #completionLength()} on success, else 0. */
    public final int completionLength(CompletionStatus status) {
        return status == CompletionStatus.SUCCESS ? completionLength() : 0;
    }

    /** Whether a completion with {@code status} is published: always for an error, on success only if signaled. */
    public final boolean publishes(CompletionStatus status) {
        return signaled || status != CompletionStatus.SUCCESS;
    }
}
