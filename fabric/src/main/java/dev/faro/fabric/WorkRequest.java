package dev.faro.fabric;

import java.lang.foreign.MemorySegment;

/**
 * A request for the send queue of a {@link QueuePair}: a reusable, mutable value, so posting allocates nothing. The
 * provider reads it during {@link QueuePair#postSend} and keeps no reference to it afterwards, so the caller may
 * reuse the object at once (but not the local <em>buffer</em> it names, until the request's completion is polled).
 *
 * <pre>{@code
 * WorkRequest request = new WorkRequest();                  // once
 * request.clear().requestId(7).opcode(Opcode.WRITE)
 *        .local(region, 0, 4096).remote(peerKey, 8192);     // per post
 * queuePair.postSend(request);
 * }</pre>
 *
 * <p>Data path: allocation-free. An instance is owned by one thread at a time.
 */
public final class WorkRequest {

    private long requestId;
    private Opcode opcode = Opcode.SEND;
    private boolean signaled = true;
    private MemoryRegion localRegion;
    private long localOffset;
    private int length;
    private MemorySegment inlineData;
    private RemoteKey remoteKey;
    private long remoteOffset;
    private int immediate;
    private long compareOrAdd;
    private long swap;
    private QueuePairAddress destination;

    /** Resets every field to its default (SEND, signaled, no buffers) and returns this. */
    public WorkRequest clear() {
        requestId = 0;
        opcode = Opcode.SEND;
        signaled = true;
        localRegion = null;
        localOffset = 0;
        length = 0;
        inlineData = null;
        remoteKey = null;
        remoteOffset = 0;
        immediate = 0;
        compareOrAdd = 0;
        swap = 0;
        destination = null;
        return this;
    }

    /** The id reported back in the request's completion. */
    public WorkRequest requestId(long requestId) {
        this.requestId = requestId;
        return this;
    }

    public WorkRequest opcode(Opcode opcode) {
        this.opcode = opcode;
        return this;
    }

    /**
     * Whether a successful request produces a completion (default true). Errors always complete. As in verbs, an
     * unsignaled request keeps its send-queue slot until a later signaled request's completion is polled.
     */
    public WorkRequest signaled(boolean signaled) {
        this.signaled = signaled;
        return this;
    }

    /**
     * The local segment: the source of SEND / WRITE, the destination of READ and of an atomic's old value (8 bytes).
     * The region must be registered; for READ and atomics it needs {@link Access#LOCAL_WRITE}.
     */
    public WorkRequest local(MemoryRegion region, long offset, int length) {
        this.localRegion = region;
        this.localOffset = offset;
        this.length = length;
        this.inlineData = null;
        return this;
    }

    /**
     * An inline payload for SEND, WRITE or WRITE_WITH_IMMEDIATE, copied during {@code postSend}, so it need not be
     * registered and may be reused as soon as {@code postSend} returns. At most
     * {@link FabricCapabilities#maxInlineBytes()} and the queue pair's configured inline limit.
     */
    public WorkRequest inline(MemorySegment data) {
        this.inlineData = data;
        this.localRegion = null;
        this.localOffset = 0;
        this.length = (int) Math.min(Integer.MAX_VALUE, data.byteSize());
        return this;
    }

    /** The remote address of a one-sided request: a region's key and an offset into it. */
    public WorkRequest remote(RemoteKey key, long offset) {
        this.remoteKey = key;
        this.remoteOffset = offset;
        return this;
    }

    /** The 32-bit immediate of a WRITE_WITH_IMMEDIATE. */
    public WorkRequest immediate(int immediate) {
        this.immediate = immediate;
        return this;
    }

    /** The operand of FETCH_ADD. */
    public WorkRequest add(long add) {
        this.compareOrAdd = add;
        return this;
    }

    /** The operands of COMPARE_SWAP: the remote word becomes {@code swap} if it equals {@code compare}. */
    public WorkRequest compareSwap(long compare, long swap) {
        this.compareOrAdd = compare;
        this.swap = swap;
        return this;
    }

    /** The destination of a UD SEND (ignored on RC, which has one peer). */
    public WorkRequest destination(QueuePairAddress destination) {
        this.destination = destination;
        return this;
    }

    public long requestId() {
        return requestId;
    }

    public Opcode opcode() {
        return opcode;
    }

    public boolean signaled() {
        return signaled;
    }

    /** The registered local region, or null for an inline request. */
    public MemoryRegion localRegion() {
        return localRegion;
    }

    public long localOffset() {
        return localOffset;
    }

    /** Bytes to move: the local segment's or the inline payload's length. */
    public int length() {
        return length;
    }

    /** The inline payload, or null. */
    public MemorySegment inlineData() {
        return inlineData;
    }

    public boolean isInline() {
        return inlineData != null;
    }

    public RemoteKey remoteKey() {
        return remoteKey;
    }

    public long remoteOffset() {
        return remoteOffset;
    }

    public int immediate() {
        return immediate;
    }

    /** The FETCH_ADD addend or the COMPARE_SWAP compare value. */
    public long compareOrAdd() {
        return compareOrAdd;
    }

    public long swap() {
        return swap;
    }

    public QueuePairAddress destination() {
        return destination;
    }

    /** Copies every field of {@code other} into this (providers use it to queue a request they cannot run yet). */
    public WorkRequest copyFrom(WorkRequest other) {
        requestId = other.requestId;
        opcode = other.opcode;
        signaled = other.signaled;
        localRegion = other.localRegion;
        localOffset = other.localOffset;
        length = other.length;
        inlineData = other.inlineData;
        remoteKey = other.remoteKey;
        remoteOffset = other.remoteOffset;
        immediate = other.immediate;
        compareOrAdd = other.compareOrAdd;
        swap = other.swap;
        destination = other.destination;
        return this;
    }

    @Override
    public String toString() {
        return "WorkRequest[requestId=" + requestId + ", opcode=" + opcode + ", length=" + length + ", signaled="
                + signaled + (isInline() ? ", inline" : "") + "]";
    }
}
