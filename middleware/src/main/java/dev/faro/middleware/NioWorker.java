package dev.faro.middleware;

import dev.faro.fabric.FaroException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One worker's shuffle queues over NIO (the paper's baseline): rows for a worker of another process are
 * serialized into the outgoing buffer of that pair's channel and written (non-blocking) once
 * {@code writeThreshold} bytes are pending or on flush (never per row: an idle poll only retries bytes a
 * write left behind); polling copies what the channels hold into the incoming
 * buffers (the paper's step 2, which the RDMA version does not need) and reads rows from there. Records have the
 * header of {@link RowRecordDescriptor} ({@code [operatorId:int][length:int]}, little-endian, length −1 for end of
 * stream) followed by the payload, packed: a stream needs neither the ring's 8-byte alignment nor padding records.
 *
 * <p>Every wait is woken by an event, as in a competent NIO program: the worker waits in its selector, which
 * returns when a channel is readable, when a channel with bytes left behind is writable again (OP_WRITE interest
 * only while bytes are pending), or when a same-process peer has published rows or freed ring space
 * ({@link Selector#wakeup()} through the {@link WorkerSlot}). The selector timeout is only a backstop, the same
 * as the middleware's park.
 *
 * <p>Confined to one thread at a time; it alone touches its channels.
 */
public final class NioWorker implements ShuffleQueues {

    /** Backstop of a selector wait, as {@code MiddlewareWorker}'s park; events end waits long before. */
    private static final long BACKSTOP_MILLIS = 1;

    private final MiddlewareConfig config;
    private final int id;
    private final int firstLocal;
    private final WorkerSlot slot;
    /** The same-process rings with rows this worker has not read (as the middleware's; channels are polled). */
    private final ReadyRings ready;

    private final OutgoingRing[] localOut;
    private final IncomingRing[] localIn;
    private final SocketChannel[] channels;
    private final ByteBuffer[] out;
    private final ByteBuffer[] in;
    private final MemorySegment[] outSegment;
    private final MemorySegment[] inSegment;
    private final DemuxQueue[] demux = new DemuxQueue[MAX_OPERATORS];
    private final MemorySegment longRow;
    private final Selector selector;
    private final SelectionKey[] keys;
    /** The shuffle's first broken channel or selector, shared by its workers (see {@link NioShuffle#unusable}). */
    private final AtomicReference<FaroException> broken;

    /** Destinations whose due bytes (threshold reached or flushed) a non-blocking write left behind. */
    private final boolean[] owed;

    /** Counters (this worker's thread). */
    long sendBlocks;

    /** Polls since the channels were last read: a poll reads them (a syscall each) every 16th time or when idle. */
    private int pollsSinceRead;

    private boolean readChannelsNow = true;

    NioWorker(
            MiddlewareConfig config,
            int process,
            int local,
            WorkerSlot slot,
            ReadyRings ready,
            LocalRings rings,
            SocketChannel[] channels,
            Arena arena,
            AtomicReference<FaroException> broken)
            throws IOException {
        this.config = config;
        this.broken = broken;
        int n = config.workersPerProcess();
        this.id = process * n + local;
        this.firstLocal = process * n;
        this.slot = slot;
        this.ready = ready;
        this.localOut = rings.outgoing[local];
        this.localIn = rings.incoming[local];
        this.channels = channels;
        int total = config.workers();
        this.out = new ByteBuffer[total];
        this.in = new ByteBuffer[total];
        this.outSegment = new MemorySegment[total];
        this.inSegment = new MemorySegment[total];
        this.selector = Selector.open();
        this.keys = new SelectionKey[total];
        this.owed = new boolean[total];
        for (int other = 0; other < total; other++) {
            if (channels[other] != null) {
                outSegment[other] = arena.allocate(config.ringBytes(), 64);
                inSegment[other] = arena.allocate(config.ringBytes(), 64);
                out[other] = outSegment[other].asByteBuffer();
                in[other] = inSegment[other].asByteBuffer();
                keys[other] = channels[other].register(selector, SelectionKey.OP_READ);
            }
        }
        for (int op = 0; op < MAX_OPERATORS; op++) {
            demux[op] = new DemuxQueue(1024);
        }
        this.longRow = arena.allocate(Long.BYTES, 8);
        slot.attach(selector);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public int workers() {
        return out.length;
    }

    @Override
    public void send(int destination, int operator, MemorySegment row, long offset, int length) {
        RowRecordDescriptor.checkRow(operator, length, config.maxRowBytes());
        append(destination, operator, row, offset, length);
    }

    @Override
    public void sendLong(int destination, int operator, long value) {
        RowRecordDescriptor.checkOperator(operator);
        longRow.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, value);
        append(destination, operator, longRow, 0, Long.BYTES);
    }

    private void append(int destination, int operator, MemorySegment row, long offset, int length) {
        int local = destination - firstLocal;
        while (!tryAppend(destination, operator, row, offset, length)) {
            if (local >= 0 && local < localOut.length) {
                waitForSpace(localOut[local]);
            } else {
                checkInterrupted();
                drainChannels(-1, null, true);
                if (out[destination].remaining() < RowRecordDescriptor.HEADER_LENGTH + Math.max(length, 0)) {
                    awaitEvent();
                }
            }
        }
    }

    @Override
    public boolean trySend(int destination, int operator, MemorySegment row, long offset, int length) {
        RowRecordDescriptor.checkRow(operator, length, config.maxRowBytes());
        return tryAppend(destination, operator, row, offset, length);
    }

    @Override
    public boolean tryEndOfStream(int destination, int operator) {
        RowRecordDescriptor.checkOperator(operator);
        boolean appended = tryAppend(destination, operator, longRow, 0, RowRecordDescriptor.END_OF_STREAM);
        int local = destination - firstLocal;
        if (local >= 0 && local < localOut.length) {
            localOut[local].requestFlush();
            localOut[local].tryPost();
        } else if (out[destination].position() > 0) {
            writeOut(destination);
        }
        return appended;
    }

    /** {@link #append} without waiting: false when the ring or the channel's buffer has no room. */
    private boolean tryAppend(int destination, int operator, MemorySegment row, long offset, int length) {
        int local = destination - firstLocal;
        if (local >= 0 && local < localOut.length) {
            OutgoingRing ring = localOut[local];
            if (!ring.tryAppend(operator, row, offset, length)) {
                ring.requestFlush();
                ring.tryPost();
                return false;
            }
            ring.tryPost();
            return true;
        }
        ByteBuffer buffer = out[destination];
        int recordLength = RowRecordDescriptor.HEADER_LENGTH + Math.max(length, 0);
        if (buffer.remaining() < recordLength) {
            writeOut(destination);
            if (buffer.remaining() < recordLength) {
                sendBlocks++;
                return false;
            }
        }
        int position = buffer.position();
        MemorySegment segment = outSegment[destination];
        RowRecordDescriptor.writeHeader(segment, position, operator, length);
        if (length > 0) {
            MemorySegment.copy(row, offset, segment, position + RowRecordDescriptor.HEADER_LENGTH, length);
        }
        buffer.position(position + recordLength);
        if (buffer.position() >= config.writeThreshold()) {
            writeOut(destination);
        }
        return true;
    }

    /** {@link #flush}: its write of every non-empty channel buffer already covers the owed bytes. */
    @Override
    public void push() {
        flush();
    }

    private void waitForSpace(OutgoingRing ring) {
        sendBlocks++;
        slot.register();
        ring.requestFlush();
        ring.tryPost();
        drainChannels(-1, null, true);
        drainLocal(-1, null);
        checkInterrupted();
        writeAll();
        if (ring.unsynchronizedBacklog() + RowRecordDescriptor.recordLength(config.maxRowBytes()) * 2L
                > ring.capacity) {
            awaitEvent();
        }
    }

    @Override
    public void flush() {
        for (OutgoingRing ring : localOut) {
            ring.requestFlush();
            ring.tryPost();
        }
        writeAll();
    }

    @Override
    public void endOfStream(int operator) {
        RowRecordDescriptor.checkOperator(operator);
        for (int destination = 0; destination < out.length; destination++) {
            append(destination, operator, longRow, 0, RowRecordDescriptor.END_OF_STREAM);
        }
        flush();
    }

    @Override
    public int poll(int operator, MemorySegment into) {
        return poll(operator, into, out.length);
    }

    @Override
    public int poll(int operator, MemorySegment into, int expectedEnds) {
        RowRecordDescriptor.checkOperator(operator);
        DemuxQueue queue = demux[operator];
        if (!queue.isEmpty()) {
            return queue.remove(into);
        }
        int found = drainLocal(operator, into);
        if (found == NONE) {
            boolean read = readChannelsNow || ++pollsSinceRead >= 16;
            if (read) {
                pollsSinceRead = 0;
                readChannelsNow = false;
            }
            found = drainChannels(operator, into, read);
        }
        if (found != NONE) {
            return found;
        }
        writeOwed(); // a non-blocking write may have left due bytes behind; keep them moving while idle
        if (!queue.isEmpty()) {
            return queue.remove(into);
        }
        if (queue.endsOfStream == expectedEnds) {
            queue.endsOfStream = 0;
            return END;
        }
        return NONE;
    }

    @Override
    public int take(int operator, MemorySegment into) {
        slot.register();
        while (true) {
            int result = poll(operator, into);
            if (result != NONE) {
                return result;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new FaroException(FaroException.Category.CLOSED, "interrupted while waiting for rows");
            }
            awaitEvent();
        }
    }

    /**
     * Waits in the selector until a channel is readable, a channel with pending output is writable, or a
     * same-process peer wakes this worker; then the next poll reads the channels.
     */
    private void awaitEvent() {
        slot.register();
        for (int other = 0; other < keys.length; other++) {
            SelectionKey key = keys[other];
            if (key != null) {
                int wanted = owed[other] ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
                if (key.interestOps() != wanted) {
                    key.interestOps(wanted);
                }
            }
        }
        try {
            selector.select(BACKSTOP_MILLIS);
            selector.selectedKeys().clear();
        } catch (IOException e) {
            throw broken(new FaroException(FaroException.Category.IO, "NIO select failed: " + e.getMessage(), e));
        }
        readChannelsNow = true;
    }

    private int drainLocal(int wanted, MemorySegment into) {
        if (!ready.collect()) {
            return NONE;
        }
        int index = firstLocal;
        while ((index = ready.next(index)) >= 0) {
            IncomingRing ring = localIn[index - firstLocal];
            int found = ring.drainInto(wanted, into, demux);
            long read = ring.unsynchronizedRead();
            if (read - ring.notified >= config.readNotifyThreshold() || found == NONE) {
                ring.notified = read;
                ring.localWriter.wake();
            }
            if (found != NONE) {
                return found;
            }
            ready.clear(index);
        }
        return NONE;
    }

    private int drainChannels(int wanted, MemorySegment into, boolean read) {
        for (int source = 0; source < channels.length; source++) {
            SocketChannel channel = channels[source];
            if (channel == null) {
                continue;
            }
            ByteBuffer buffer = in[source];
            int found = parse(source, wanted, into);
            if (found != NONE || !read) {
                if (found != NONE) {
                    return found;
                }
                continue;
            }
            try {
                if (channel.read(buffer) < 0) {
                    throw broken(new FaroException(
                            FaroException.Category.NETWORK,
                            "worker " + source + " closed its channel mid-shuffle (its process died or stopped)"));
                }
            } catch (IOException e) {
                throw broken(new FaroException(
                        FaroException.Category.NETWORK,
                        "channel to worker " + source + " failed: " + e.getMessage(),
                        e));
            }
            found = parse(source, wanted, into);
            if (found != NONE) {
                return found;
            }
        }
        return NONE;
    }

    /** Reads whole records from the incoming buffer of {@code source} (in write mode before and after). */
    private int parse(int source, int wanted, MemorySegment into) {
        ByteBuffer buffer = in[source];
        MemorySegment segment = inSegment[source];
        int limit = buffer.position();
        int position = 0;
        int found = NONE;
        while (found == NONE && limit - position >= RowRecordDescriptor.HEADER_LENGTH) {
            int operator = RowRecordDescriptor.operatorId(segment, position);
            int length = RowRecordDescriptor.length(segment, position);
            if (length == RowRecordDescriptor.END_OF_STREAM) {
                demux[operator].endsOfStream++;
                position += RowRecordDescriptor.HEADER_LENGTH;
                continue;
            }
            if (limit - position < RowRecordDescriptor.HEADER_LENGTH + length) {
                break;
            }
            if (operator == wanted) {
                MemorySegment.copy(segment, position + RowRecordDescriptor.HEADER_LENGTH, into, 0, length);
                found = length;
            } else {
                demux[operator].add(segment, position + RowRecordDescriptor.HEADER_LENGTH, length);
            }
            position += RowRecordDescriptor.HEADER_LENGTH + length;
        }
        if (position > 0) {
            buffer.flip().position(position);
            buffer.compact();
        }
        return found;
    }

    private void writeAll() {
        for (int destination = 0; destination < out.length; destination++) {
            if (out[destination] != null && out[destination].position() > 0) {
                writeOut(destination);
            }
        }
    }

    private void writeOwed() {
        for (int destination = 0; destination < owed.length; destination++) {
            if (owed[destination]) {
                writeOut(destination);
            }
        }
    }

    /** Writes what the socket takes; bytes it leaves behind are owed (written when it is writable again). */
    private void writeOut(int destination) {
        ByteBuffer buffer = out[destination];
        buffer.flip();
        try {
            channels[destination].write(buffer);
        } catch (IOException e) {
            throw broken(new FaroException(
                    FaroException.Category.NETWORK,
                    "channel to worker " + destination + " failed: " + e.getMessage(),
                    e));
        } finally {
            buffer.compact();
            owed[destination] = buffer.position() > 0;
        }
    }

    /** Records {@code error} as the shuffle's broken channel (first one wins) and returns it to be thrown. */
    private FaroException broken(FaroException error) {
        broken.compareAndSet(null, error);
        return error;
    }

    void closeSelector() {
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    private static void checkInterrupted() {
        if (Thread.interrupted()) {
            throw new FaroException(FaroException.Category.CLOSED, "interrupted while waiting for ring space");
        }
    }
}
