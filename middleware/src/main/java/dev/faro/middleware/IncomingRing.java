package dev.faro.middleware;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The incoming ring of one worker pair, read by the receiving worker up to the written position: announced by the
 * network thread from WRITTEN notifications (remote sender) or published by a same-process sender, which also puts
 * the ring on its reader's {@link ReadyRings} and wakes the reader. Consumed bytes
 * are returned to the sender with a READ notification once {@code readNotifyThreshold} of them accumulate (or when
 * the reader runs dry, so a sender never waits on a batch that will not fill).
 *
 * <p>Data path: allocation-free.
 */
final class IncomingRing {

    private static final VarHandle WRITTEN;
    private static final VarHandle READ;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WRITTEN = lookup.findVarHandle(IncomingRing.class, "written", long.class);
            READ = lookup.findVarHandle(IncomingRing.class, "read", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The pair's index at the sender: writerLocal * workersPerProcess + readerLocal. */
    final int index;

    final MemorySegment ring;
    final long mask;
    /** Null for a same-process pair. */
    final PeerConnection peer;
    /** The sending worker's thread slot, for a same-process pair (woken when space frees), else null. */
    final WorkerSlot localWriter;
    /** The reading worker's list of rings with data, this ring's place on it, and the reader's thread slot. */
    private final ReadyRings ready;

    final int readyIndex;
    private final WorkerSlot readerSlot;
    /** Times new data was announced (the one publishing thread writes; approximate elsewhere). */
    long announcements;

    /** Written by the network thread or a same-process sender (release); read by the receiving worker. */
    private long written;
    /** Written by the receiving worker (release); read by a same-process sender. */
    private long read;
    /** Receiving worker: the read position last returned to the sender. */
    long notified;

    IncomingRing(
            int index,
            MemorySegment ring,
            PeerConnection peer,
            WorkerSlot localWriter,
            ReadyRings ready,
            int readyIndex,
            WorkerSlot readerSlot) {
        this.index = index;
        this.ring = ring;
        this.mask = ring.byteSize() - 1;
        this.peer = peer;
        this.localWriter = localWriter;
        this.ready = ready;
        this.readyIndex = readyIndex;
        this.readerSlot = readerSlot;
    }

    /**
     * The one publishing thread (the network thread for a remote sender, the sending worker for a same-process one):
     * data is written up to {@code position}. Publishes it, puts this ring on its reader's list and wakes the reader.
     */
    void announce(long position) {
        if (!publishWritten(position)) {
            return; // nothing new (a stale announcement): the ring stays off the list
        }
        announcements++;
        ready.mark(readyIndex);
        readerSlot.wake();
    }

    long written() {
        return (long) WRITTEN.getAcquire(this);
    }

    private boolean publishWritten(long position) {
        if (position - (long) WRITTEN.getAcquire(this) > 0) {
            WRITTEN.setRelease(this, position);
            return true;
        }
        return false;
    }

    long readPosition() {
        return (long) READ.getAcquire(this);
    }

    /** Receiving worker only. */
    long unsynchronizedRead() {
        return read;
    }

    /**
     * Receiving worker only: reads records up to the written position until one row of operator {@code wanted} is
     * found (copied into {@code into}; its length returned), moving every other operator's rows to its demux queue
     * and counting ends of stream; returns {@link ShuffleQueues#NONE} when the ring is drained first. Frees what
     * it read (for a same-process writer at once; a remote one learns it from a READ notification).
     */
    int drainInto(int wanted, MemorySegment into, DemuxQueue[] demux) {
        long read = this.read;
        long written = written();
        int found = ShuffleQueues.NONE;
        while (read != written && found == ShuffleQueues.NONE) {
            long offset = read & mask;
            int operator = RowRecordDescriptor.operatorId(ring, offset);
            int length = RowRecordDescriptor.length(ring, offset);
            if ((operator < 0 && operator != RowRecordDescriptor.PADDING)
                    || operator >= ShuffleQueues.MAX_OPERATORS
                    || length < RowRecordDescriptor.END_OF_STREAM) {
                throw new IllegalStateException("corrupt record in ring " + index + ": operatorId=" + operator
                        + " length=" + length + " read=" + read + " written=" + written);
            }
            long span = operator == RowRecordDescriptor.PADDING
                    ? length
                    : RowRecordDescriptor.recordLength(Math.max(length, 0));
            if (read + span - written > 0) {
                break; // a WRITE cut by the remote free space ended inside this record; the next one completes it
            }
            if (operator == RowRecordDescriptor.PADDING) {
                read += length;
            } else if (length == RowRecordDescriptor.END_OF_STREAM) {
                demux[operator].endsOfStream++;
                read += RowRecordDescriptor.HEADER_LENGTH;
            } else {
                if (operator == wanted) {
                    MemorySegment.copy(ring, offset + RowRecordDescriptor.HEADER_LENGTH, into, 0, length);
                    found = length;
                } else {
                    demux[operator].add(ring, offset + RowRecordDescriptor.HEADER_LENGTH, length);
                }
                read += RowRecordDescriptor.recordLength(length);
            }
        }
        READ.setRelease(this, read);
        return found;
    }
}
