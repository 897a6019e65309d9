package dev.faro.middleware;

import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The outgoing ring of one worker pair (a sending worker of this process, a receiving worker anywhere), and the
 * sender's view of the mirrored incoming ring at the receiver.
 *
 * <p>Positions are absolute byte counts: {@code completed ≤ sent ≤ head}. The sending worker appends at
 * {@code head}. A WRITE copies {@code [sent, sent + n)} to the same offsets of the remote ring; at most one WRITE is
 * in flight per ring ({@code inFlight}, claimed by compare-and-set by whichever thread posts it: the worker itself,
 * or the network thread when the previous WRITE completes or a READ notification frees remote space — the paper's
 * deferral). Its completion advances {@code completed}, which frees local space. Remote space is
 * {@code capacity − (sent − remoteRead)}, where {@code remoteRead} comes from the receiver's READ notifications.
 *
 * <p>A same-process pair has no WRITE: the receiving worker reads this ring in place (the paper's local shortcut,
 * without serialization to the network). The sender publishes {@code head} as the reader's written position in
 * batches, as a remote sender's WRITE does: once {@code writeThreshold} bytes (at least 4 KiB) are new, or on a flush;
 * each publication puts the ring on the reader's list of rings with data. The reader's position frees space.
 *
 * <p>Data path: allocation-free after construction.
 */
final class OutgoingRing {

    private static final VarHandle HEAD;
    private static final VarHandle FLUSH_TARGET;
    private static final VarHandle COMPLETED;
    private static final VarHandle REMOTE_READ;
    private static final VarHandle IN_FLIGHT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(OutgoingRing.class, "head", long.class);
            FLUSH_TARGET = lookup.findVarHandle(OutgoingRing.class, "flushTarget", long.class);
            COMPLETED = lookup.findVarHandle(OutgoingRing.class, "completed", long.class);
            REMOTE_READ = lookup.findVarHandle(OutgoingRing.class, "remoteRead", long.class);
            IN_FLIGHT = lookup.findVarHandle(OutgoingRing.class, "inFlight", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int index;
    final int capacity;
    final MemorySegment ring;
    private final long mask;
    private final int writeThreshold;
    /** Null for a same-process pair. */
    final PeerConnection peer;

    private final MemoryRegion region;
    private final long regionOffset;
    private final long remoteOffset;
    private final WorkRequest request = new WorkRequest();
    /** The reader of a same-process pair, else null. */
    final IncomingRing localReader;

    private final int publishStride;
    /** Sending worker: the position last published to a same-process reader. */
    private long localPublished;

    /** Written by the sending worker (release); read by the flag holder and a same-process reader. */
    private long head;
    /** Sending worker only: where {@code head} moves when the record {@link #reserve} made room for is published. */
    private long reservedEnd;
    /** Written by the sending worker: a flush asks for everything up to here to be written. */
    private long flushTarget;
    /** Written by the thread holding {@code inFlight}; read without it only as a lower bound (it only grows). */
    private long sent;
    /** Written by the network thread on WRITE completion. */
    private long completed;
    /** Written by the network thread on a READ notification. */
    private long remoteRead;
    /** 1 while a thread decides or a WRITE is in flight; set by compare-and-set, cleared on completion. */
    private int inFlight;
    /** Written by the flag holder, read by the network thread on completion. */
    private int inFlightLength;
    /** Network thread: the completed position last announced by WRITTEN. */
    long announced;
    /** Network thread: already on the peer's list of rings to announce. */
    boolean announcePending;
    /** Counters written by the posting threads (approximate when read elsewhere). */
    long writesPosted;

    OutgoingRing(
            int index,
            int capacity,
            int writeThreshold,
            MemorySegment ring,
            PeerConnection peer,
            MemoryRegion region,
            long regionOffset,
            long remoteOffset,
            IncomingRing localReader) {
        this.index = index;
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.writeThreshold = writeThreshold;
        this.ring = ring;
        this.peer = peer;
        this.region = region;
        this.regionOffset = regionOffset;
        this.remoteOffset = remoteOffset;
        this.localReader = localReader;
        this.publishStride = Math.max(writeThreshold, 4096);
    }

    /**
     * Sending worker only: appends one record (a row, or end-of-stream when {@code length} is
     * {@link RowRecordDescriptor#END_OF_STREAM}), padding to the end of the ring first if it would wrap.
     *
     * @return false when the ring has no room (nothing written)
     */
    boolean tryAppend(int operatorId, MemorySegment source, long sourceOffset, int length) {
        int payloadOffset = reserve(operatorId, length);
        if (payloadOffset < 0) {
            return false;
        }
        if (length > 0) {
            MemorySegment.copy(source, sourceOffset, ring, payloadOffset, length);
        }
        HEAD.setRelease(this, reservedEnd);
        return true;
    }

    /** Sending worker only: appends an 8-byte row without a source segment. */
    boolean tryAppendLong(int operatorId, long value) {
        int payloadOffset = reserve(operatorId, Long.BYTES);
        if (payloadOffset < 0) {
            return false;
        }
        ring.set(ValueLayout.JAVA_LONG_UNALIGNED, payloadOffset, value);
        HEAD.setRelease(this, reservedEnd);
        return true;
    }

    /**
     * Sending worker only: makes room for a record with a {@code length}-byte payload (padding to the end of the ring
     * first if it would wrap), writes its header and sets {@link #reservedEnd}; the caller writes the payload and then
     * publishes {@code head = reservedEnd}.
     *
     * @return the payload's offset in the ring, or -1 when the ring has no room (nothing written)
     */
    private int reserve(int operatorId, int length) {
        int recordLength = RowRecordDescriptor.recordLength(Math.max(length, 0));
        long position = head;
        int offset = (int) (position & mask);
        int tail = capacity - offset;
        int padding = tail < recordLength ? tail : 0;
        long freed = localReader == null ? (long) COMPLETED.getAcquire(this) : localReader.readPosition();
        if (position + padding + recordLength - freed > capacity) {
            return -1;
        }
        if (padding > 0) {
            RowRecordDescriptor.writeHeader(ring, offset, RowRecordDescriptor.PADDING, padding);
            position += padding;
            offset = 0;
        }
        RowRecordDescriptor.writeHeader(ring, offset, operatorId, length);
        reservedEnd = position + recordLength;
        return offset + RowRecordDescriptor.HEADER_LENGTH;
    }

    /** Sending worker only: asks for everything appended so far to be written regardless of the threshold. */
    void requestFlush() {
        FLUSH_TARGET.setRelease(this, head);
    }

    /**
     * Posts a WRITE if one is due (threshold reached or flush requested), remote space allows and none is in
     * flight; else leaves it to whoever changes that condition. Any thread; a same-process pair only publishes, and
     * only its sending worker calls this for it.
     */
    void tryPost() {
        if (localReader != null) {
            // only the sending worker calls this for a same-process pair: head and flushTarget are its own
            long published = head;
            if (published - localPublished >= publishStride || flushTarget - localPublished > 0) {
                localPublished = published;
                localReader.announce(published);
            }
            return;
        }
        // The sending worker calls this after every row: skip the flag's compare-and-set while nothing is due. Read
        // without the flag, sent may be stale; it only grows, so a stale value overstates what is due, never hides it.
        if (!isDue(sent)) {
            return;
        }
        while (IN_FLIGHT.compareAndSet(this, 0, 1)) {
            long pending = (long) HEAD.getAcquire(this) - sent;
            long remoteFree = capacity - (sent - (long) REMOTE_READ.getAcquire(this));
            if (isDue(sent) && remoteFree > 0) {
                int offset = (int) (sent & mask);
                int length = (int) Math.min(Math.min(pending, remoteFree), capacity - offset);
                inFlightLength = length;
                sent += length;
                writesPosted++;
                request.clear()
                        .requestId(peer.writeRequestId(index))
                        .opcode(Opcode.WRITE)
                        .local(region, regionOffset + offset, length)
                        .remote(peer.remoteKey(), remoteOffset + offset);
                peer.postWrite(request);
                return;
            }
            IN_FLIGHT.setRelease(this, 0);
            // the condition may have changed while this thread held the flag; the other thread saw it held and left
            if (!isDue(sent) || capacity - (sent - (long) REMOTE_READ.getAcquire(this)) <= 0) {
                return;
            }
        }
    }

    /** Whether a WRITE from {@code sentPosition} is due: bytes pending, and the threshold reached or a flush asked. */
    private boolean isDue(long sentPosition) {
        long pending = (long) HEAD.getAcquire(this) - sentPosition;
        return pending > 0 && (pending >= writeThreshold || (long) FLUSH_TARGET.getAcquire(this) - sentPosition > 0);
    }

    /** Network thread: the WRITE in flight completed; frees its local space and releases the flag. */
    long onWriteCompleted() {
        long done = completed + inFlightLength;
        COMPLETED.setRelease(this, done);
        IN_FLIGHT.setRelease(this, 0);
        return done;
    }

    long completedPosition() {
        return (long) COMPLETED.getAcquire(this);
    }

    /** Network thread: the receiver consumed up to {@code position}. */
    void onRead(long position) {
        if (position - (long) REMOTE_READ.getAcquire(this) > 0) {
            REMOTE_READ.setRelease(this, position);
        }
    }

    /** Bytes appended and not yet freed (approximate from other threads). */
    long unsynchronizedBacklog() {
        long freed = localReader == null ? (long) COMPLETED.getAcquire(this) : localReader.readPosition();
        return (long) HEAD.getAcquire(this) - freed;
    }
}
