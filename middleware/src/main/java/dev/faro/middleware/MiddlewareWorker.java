package dev.faro.middleware;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker's end of the middleware: the paper's four functions (send rows to workers, retrieve queued rows,
 * block when there is nothing to process, block when a row cannot be copied into a full ring), per shuffle
 * operator. Every operator of a plan shares this worker's rings; rows carry the operator id and are sorted into
 * per-operator demux queues as they are read (see {@link DemuxQueue} for why that avoids deadlock).
 *
 * <p>A shuffle operator with id {@code op} (0 … {@link #MAX_OPERATORS} − 1) on every worker:
 *
 * <pre>{@code
 * for each row: worker.send(destination, op, row, 0, length)   // hash repartition; or gather / broadcast
 * worker.endOfStream(op);                                       // after the last row: flushes, tells everyone
 * while ((length = worker.take(op, into)) != MiddlewareWorker.END) { ... }
 * }</pre>
 *
 * An operator id may be reused for the next query once every worker has seen {@link #END} for it.
 *
 * <p>Confined to one thread at a time. Data path: allocation-free after open (a demux queue grows only while a
 * later operator's rows run ahead of the current one).
 */
public final class MiddlewareWorker implements ShuffleQueues {

    private static final long PARK_NANOS = 1_000_000;

    private final ShuffleMiddleware middleware;
    private final MiddlewareConfig config;
    private final int worker;
    private final WorkerSlot slot;
    /** The incoming rings with data this worker has not read: the only rings a poll visits. */
    private final ReadyRings ready;

    private final IncomingRing[] incoming;
    private final OutgoingRing[] outgoing;
    private final DemuxQueue[] demux = new DemuxQueue[MAX_OPERATORS];
    private final WorkRequest readRequest = new WorkRequest();
    /** The READ batch being built for one peer process, and its prefixes of 1 … 8 entries (sent inline). */
    private final MemorySegment readMessage;

    private final MemorySegment[] readPrefixes;
    /** The rings whose entries are in {@link #readMessage}. */
    private final IncomingRing[] readBatch = new IncomingRing[NotificationDescriptor.MAX_ENTRIES];
    /** Per peer process: one of its rings crossed the READ threshold since that peer's last batch. */
    private final boolean[] readDue;

    private boolean anyReadDue;
    /** Rows were read since consumed space was last returned: an idle poll has space to return. */
    private boolean unreturned;
    /** The rings read since consumed space was last returned (the first {@code consumedCount}), and membership. */
    private final int[] consumed;

    private final boolean[] isConsumed;
    private int consumedCount;

    private final MemorySegment longRow;
    private int nextRing;

    /** Counters (this worker's thread writes; approximate elsewhere). */
    long readNotificationsSent;

    long readEntriesSent;

    long remoteBytesSent;
    long sendBlocks;
    /** Times a poll visited an incoming ring (each one on the list of rings with data), and found nothing to read. */
    long ringVisits;

    long idleRingVisits;

    MiddlewareWorker(
            ShuffleMiddleware middleware,
            MiddlewareConfig config,
            int worker,
            WorkerSlot slot,
            ReadyRings ready,
            IncomingRing[] incoming,
            OutgoingRing[] outgoing,
            Arena arena) {
        this.middleware = middleware;
        this.config = config;
        this.worker = worker;
        this.slot = slot;
        this.ready = ready;
        this.incoming = incoming;
        this.consumed = new int[incoming.length];
        this.isConsumed = new boolean[incoming.length];
        this.outgoing = outgoing;
        for (int op = 0; op < MAX_OPERATORS; op++) {
            demux[op] = new DemuxQueue(1024);
        }
        this.readMessage = arena.allocate(NotificationDescriptor.MESSAGE_LENGTH, 8);
        this.readPrefixes = new MemorySegment[NotificationDescriptor.MAX_ENTRIES + 1];
        for (int count = 1; count <= NotificationDescriptor.MAX_ENTRIES; count++) {
            readPrefixes[count] = readMessage.asSlice(0, (long) count * NotificationDescriptor.ENTRY_LENGTH);
        }
        this.readDue = new boolean[config.processes()];
        this.longRow = arena.allocate(Long.BYTES, 8);
    }

    /**
     * Bytes the demux queues allocated growing since open: the one allocation after open, when rows of an operator
     * are read (by a thread reading for another operator, or servicing while it waits) faster than that operator's
     * reader takes them. Approximate while the worker runs.
     */
    public long demuxBytesGrown() {
        long bytes = 0;
        for (DemuxQueue queue : demux) {
            bytes += queue.grownBytes;
        }
        return bytes;
    }

    /** Times new data was announced in this worker's incoming rings (approximate while the worker runs). */
    long announcements() {
        long count = 0;
        for (IncomingRing ring : incoming) {
            count += ring.announcements;
        }
        return count;
    }

    /** This worker's global id: process × workersPerProcess + local index. */
    @Override
    public int id() {
        return worker;
    }

    /** Workers in the cluster. */
    @Override
    public int workers() {
        return incoming.length;
    }

    /**
     * Sends one row of operator {@code operator} to worker {@code destination}: copies it into the outgoing ring of
     * the pair (so the caller may reuse its memory at once) and posts a WRITE when the write threshold is reached.
     * Blocks while that ring is full, reading incoming rows into the demux queues meanwhile.
     */
    @Override
    public void send(int destination, int operator, MemorySegment row, long offset, int length) {
        RowRecordDescriptor.checkRow(operator, length, config.maxRowBytes());
        OutgoingRing ring = outgoing[destination];
        while (!ring.tryAppend(operator, row, offset, length)) {
            waitForSpace(ring);
        }
        afterAppend(ring, length);
    }

    /** {@link #send} of an 8-byte row holding {@code value} (little-endian on this platform's order). */
    @Override
    public void sendLong(int destination, int operator, long value) {
        RowRecordDescriptor.checkOperator(operator);
        OutgoingRing ring = outgoing[destination];
        while (!ring.tryAppendLong(operator, value)) {
            waitForSpace(ring);
        }
        afterAppend(ring, Long.BYTES);
    }

    /**
     * {@link #send} without waiting: appends the row if the ring towards {@code destination} has room and posts a
     * WRITE when one is due; else asks for that ring to be written out and returns false (nothing appended). For
     * callers that wait their own way (the exchange transport, whose waits are stall-checked).
     */
    @Override
    public boolean trySend(int destination, int operator, MemorySegment row, long offset, int length) {
        RowRecordDescriptor.checkRow(operator, length, config.maxRowBytes());
        OutgoingRing ring = outgoing[destination];
        if (!ring.tryAppend(operator, row, offset, length)) {
            ring.requestFlush();
            ring.tryPost();
            return false;
        }
        afterAppend(ring, length);
        return true;
    }

    /**
     * Ends this worker's rows of {@code operator} towards worker {@code destination} only, without waiting: appends
     * the end-of-stream record and flushes that ring, or returns false when the ring has no room.
     */
    @Override
    public boolean tryEndOfStream(int destination, int operator) {
        RowRecordDescriptor.checkOperator(operator);
        OutgoingRing ring = outgoing[destination];
        boolean appended = ring.tryAppend(operator, longRow, 0, RowRecordDescriptor.END_OF_STREAM);
        ring.requestFlush();
        ring.tryPost();
        return appended;
    }

    @Override
    public void push() {
        middleware.checkUsable();
        for (OutgoingRing ring : outgoing) {
            ring.requestFlush();
            ring.tryPost();
        }
        returnConsumedSpace();
    }

    /** Sends a row to every worker, this one included. */
    public void broadcast(int operator, MemorySegment row, long offset, int length) {
        for (int destination = 0; destination < outgoing.length; destination++) {
            send(destination, operator, row, offset, length);
        }
    }

    /** Writes out everything appended so far, whatever the write threshold. */
    @Override
    public void flush() {
        middleware.checkUsable();
        for (OutgoingRing ring : outgoing) {
            ring.requestFlush();
            ring.tryPost();
        }
    }

    /** Ends this worker's rows of {@code operator}: an end-of-stream record to every worker, then a flush. */
    @Override
    public void endOfStream(int operator) {
        RowRecordDescriptor.checkOperator(operator);
        for (OutgoingRing ring : outgoing) {
            while (!ring.tryAppend(operator, longRow, 0, RowRecordDescriptor.END_OF_STREAM)) {
                waitForSpace(ring);
            }
        }
        flush();
    }

    /**
     * The next row of {@code operator} for this worker, copied into {@code into}, without blocking.
     *
     * @return its length, {@link #NONE} if no row is there now, or {@link #END} once every worker ended the
     *     operator and all its rows were returned
     */
    @Override
    public int poll(int operator, MemorySegment into) {
        return poll(operator, into, incoming.length);
    }

    /**
     * {@link #poll(int, MemorySegment)} for an operator whose rows come from fewer senders than every worker: it
     * ends once {@code expectedEnds} end-of-stream records of it arrived here (each sender that sends to this worker
     * ends with one, {@link #tryEndOfStream}).
     */
    @Override
    public int poll(int operator, MemorySegment into, int expectedEnds) {
        RowRecordDescriptor.checkOperator(operator);
        DemuxQueue queue = demux[operator];
        if (!queue.isEmpty()) {
            return queue.remove(into);
        }
        int found = drain(operator, into);
        if (found != NONE) {
            return found;
        }
        if (!queue.isEmpty()) {
            return queue.remove(into);
        }
        if (queue.endsOfStream == expectedEnds) {
            queue.endsOfStream = 0;
            return END;
        }
        // rows already here are returned after a failure too; a worker that runs dry learns of it (its rows are lost)
        middleware.checkUsable();
        if (unreturned) {
            returnConsumedSpace(); // this worker ran dry: nothing it read may keep a sender waiting
        }
        return NONE;
    }

    /** Like {@link #poll}, but blocks until a row or the end arrives. */
    @Override
    public int take(int operator, MemorySegment into) {
        slot.register();
        while (true) {
            int result = poll(operator, into);
            if (result != NONE) {
                return result;
            }
            LockSupport.parkNanos(this, PARK_NANOS);
            if (Thread.interrupted()) {
                throw new FaroException(FaroException.Category.CLOSED, "interrupted while waiting for rows");
            }
        }
    }

    private void afterAppend(OutgoingRing ring, int length) {
        if (ring.peer != null) {
            remoteBytesSent += RowRecordDescriptor.recordLength(length);
        }
        ring.tryPost();
    }

    private void waitForSpace(OutgoingRing ring) {
        sendBlocks++;
        slot.register();
        ring.requestFlush();
        ring.tryPost();
        drain(-1, null);
        returnConsumedSpace();
        checkInterrupted();
        middleware.checkUsable();
        if (ring.unsynchronizedBacklog() + RowRecordDescriptor.recordLength(config.maxRowBytes()) * 2L
                > ring.capacity) {
            LockSupport.parkNanos(this, PARK_NANOS);
        }
    }

    /**
     * Reads records from the rings on this worker's list of rings with data ({@link ReadyRings}: put there by a WRITTEN
     * notification or a same-process publication; no other ring is looked at), starting with the last ring a row was
     * found in, until one row of {@code wanted} is found (copied into {@code into}); every other row goes to its demux
     * queue. A ring read as far as it is written leaves the list; the ring the row was found in stays. A remote ring
     * that crossed the READ threshold makes its peer due; the due peers' READ notifications go out batched at the end.
     */
    private int drain(int wanted, MemorySegment into) {
        int found = NONE;
        if (ready.collect()) {
            int index = nextRing;
            while (found == NONE && (index = ready.next(index)) >= 0) {
                IncomingRing ring = incoming[index];
                ringVisits++;
                long before = ring.unsynchronizedRead();
                found = ring.drainInto(wanted, into, demux);
                if (found == NONE) {
                    ready.clear(index);
                    if (ring.unsynchronizedRead() == before) {
                        idleRingVisits++;
                    }
                } else {
                    nextRing = index;
                }
                if (!isConsumed[index]) {
                    isConsumed[index] = true;
                    consumed[consumedCount++] = index;
                }
                unreturned = true;
                long read = ring.unsynchronizedRead();
                if (read - ring.notified >= config.readNotifyThreshold()) {
                    returnSpace(ring, read);
                }
            }
        }
        if (anyReadDue) {
            sendReadBatches();
        }
        return found;
    }

    /**
     * Returns consumed space below the READ threshold too: called when this worker runs dry or waits. Looks only at
     * the rings read since the last return.
     */
    private void returnConsumedSpace() {
        unreturned = false;
        for (int i = 0; i < consumedCount; i++) {
            int index = consumed[i];
            isConsumed[index] = false;
            IncomingRing ring = incoming[index];
            long read = ring.unsynchronizedRead();
            if (read != ring.notified) {
                returnSpace(ring, read);
            }
        }
        consumedCount = 0;
        if (anyReadDue) {
            sendReadBatches();
        }
    }

    /**
     * Frees what was read of {@code ring} up to {@code read}: in place for a same-process writer (woken), else by
     * making its peer due for a READ notification (sent batched by the caller).
     */
    private void returnSpace(IncomingRing ring, long read) {
        if (ring.peer == null) {
            ring.notified = read;
            ring.localWriter.wake();
        } else {
            readDue[ring.peer.process] = true;
            anyReadDue = true;
        }
    }

    /**
     * Sends the READ notifications of the due peer processes, batched (DAIS16 §3.2: "the
     * notifications are initially queued, and at the end they are sent in a batch"): one SEND per peer carries an
     * entry for each of its rings this worker consumed from since its last READ, up to eight entries per SEND. A peer
     * whose SEND finds the notification limit reached stays due.
     */
    private void sendReadBatches() {
        anyReadDue = false;
        int n = config.workersPerProcess();
        for (int process = 0; process < readDue.length; process++) {
            if (!readDue[process]) {
                continue;
            }
            int count = 0;
            boolean sent = true;
            for (int source = process * n; source < (process + 1) * n; source++) {
                IncomingRing ring = incoming[source];
                if (ring.peer == null) {
                    break; // this process: same-process rings, freed in place
                }
                long read = ring.unsynchronizedRead();
                if (read == ring.notified) {
                    continue;
                }
                NotificationDescriptor.put(readMessage, count, NotificationDescriptor.READ, ring.index, read);
                readBatch[count++] = ring;
                if (count == NotificationDescriptor.MAX_ENTRIES) {
                    sent &= sendReadBatch(count);
                    count = 0;
                }
            }
            if (count > 0) {
                sent &= sendReadBatch(count);
            }
            readDue[process] = !sent;
            anyReadDue |= !sent;
        }
    }

    /** Sends the {@code count} entries of {@link #readMessage} to their rings' peer; false when over its limit. */
    private boolean sendReadBatch(int count) {
        if (!readBatch[0].peer.trySendNotification(readRequest, readPrefixes[count])) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            IncomingRing ring = readBatch[i];
            ring.notified =
                    NotificationDescriptor.position(readMessage, (long) i * NotificationDescriptor.ENTRY_LENGTH);
        }
        readNotificationsSent++;
        readEntriesSent += count;
        return true;
    }

    private static void checkInterrupted() {
        if (Thread.interrupted()) {
            throw new FaroException(FaroException.Category.CLOSED, "interrupted while waiting for ring space");
        }
    }
}
