package dev.faro.shuffle.operator;

import dev.faro.fabric.PlainSegments;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * The SHUFFLE operator's data movement (TODS19 Algorithm 1) for one node: threads append fixed-width tuples, a
 * {@link Partitioner} picks each tuple's transmission group, tuples are copied into thread-partitioned registered
 * output buffers ({@code outbuf[thread][group]}), and a full buffer goes out with one PUTDATA and is replaced by
 * ACQUIRE.
 *
 * <p>End of stream: every partial buffer is flushed, and every destination gets DEPLETED exactly once per sending
 * endpoint, as its last message. With ME each thread finishes its own endpoint; with SE the threads that finish
 * early flush with MORE_DATA and the last one (an atomic countdown, taken after its own flush) sends an empty
 * DEPLETED buffer to every destination. With ME and disjoint groups (repartition, broadcast) the last partial buffer
 * of each group carries DEPLETED itself; otherwise an empty DEPLETED buffer follows the flush.
 */
public final class ShuffleSink {

    /** Tuples of two words are copied as two unaligned longs (a 16-byte {@code MemorySegment.copy} costs more). */
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    /** Bytes of a two-word tuple, the width the scatter path takes. */
    private static final int PAIR_BYTES = 2 * Long.BYTES;

    private final NodeEndpoints endpoints;
    private final TransmissionGroups groups;
    private final Partitioner partitioner;
    private final int tupleBytes;
    private final boolean sharedEndpoint;
    private final boolean disjointGroups;
    private final int[] allDestinations;
    private final AtomicInteger unfinishedThreads;

    public ShuffleSink(
            NodeEndpoints endpoints, TransmissionGroups groups, Partitioner partitioner, int tupleBytes, int threads) {
        this.endpoints = Objects.requireNonNull(endpoints, "endpoints is null");
        this.groups = Objects.requireNonNull(groups, "groups is null");
        this.partitioner = Objects.requireNonNull(partitioner, "partitioner is null");
        if (tupleBytes < 1) {
            throw new IllegalArgumentException("tupleBytes must be positive: tupleBytes=" + tupleBytes);
        }
        this.tupleBytes = tupleBytes;
        this.sharedEndpoint = endpoints.senders().size() == 1 && threads > 1;
        this.unfinishedThreads = new AtomicInteger(threads);
        this.allDestinations = IntStream.range(0, groups.groupCount())
                .flatMap(g -> IntStream.of(groups.members(g)))
                .distinct()
                .sorted()
                .toArray();
        this.disjointGroups = IntStream.range(0, groups.groupCount())
                        .map(g -> groups.members(g).length)
                        .sum()
                == allDestinations.length;
    }

    /** The writer of thread {@code thread}; thread-confined. */
    public Writer writer(int thread) {
        return new Writer(endpoints.sender(thread));
    }

    /**
     * One thread's output buffers. The open buffer of each group is cached with its payload segment and fill level
     * in arrays; the fill level reaches the buffer when it goes out. Three paths: one group (broadcast) copies the
     * vector as it is; 16-byte tuples of a native vector are scattered straight into the groups' buffers ({@link
     * #addPairs}); anything else goes one tuple at a time.
     * Data path: allocation-free after construction (the group array grows only for a larger vector than any
     * before).
     */
    public final class Writer {
        private final SendEndpoint endpoint;
        private final ShuffleBuffer[] output;
        private final MemorySegment[] payloads;
        /** Bytes filled of each group's open buffer. */
        private final int[] lengths;
        /** The fill level at which a group's open buffer has no room for another tuple. */
        private final int[] limits;

        /** The scatter path's write address in each group's open buffer (absolute; valid during a run only). */
        private final long[] positions;

        private int[] groupOf = new int[1024];
        private boolean finished;

        // The state of a non-blocking finish (tryFinish), kept between its tries.
        private boolean flushedForFinish;
        private boolean countedDown;
        private boolean lastThread;
        private int nextDepletedGroup;
        private ShuffleBuffer emptyDepleted;
        private boolean emptyDepletedSent;

        private Writer(SendEndpoint endpoint) {
            this.endpoint = endpoint;
            int count = groups.groupCount();
            this.output = new ShuffleBuffer[count];
            this.payloads = new MemorySegment[count];
            this.lengths = new int[count];
            this.limits = new int[count];
            this.positions = new long[count];
        }

        /** Partitions and copies {@code count} tuples starting at {@code offset}. */
        public void add(MemorySegment tuples, long offset, int count) {
            if (output.length == 1) {
                addToSingleGroup(tuples, offset, count);
                return;
            }
            if (groupOf.length < count) {
                groupOf = new int[count];
            }
            partitioner.groups(tuples, offset, tupleBytes, count, groupOf);
            if (tupleBytes == PAIR_BYTES && tuples.isNative()) {
                long source = PlainSegments.checkRange(tuples, offset, (long) count * PAIR_BYTES);
                for (int done = 0; done < count; ) {
                    done += addPairs(source + (long) done * PAIR_BYTES, done, count - done);
                }
            } else {
                addEach(tuples, offset, count);
            }
        }

        /**
         * The two-word path: scatters a run of the tuples (those from {@code first} in a native vector, the run's
         * first at absolute address {@code source}, the vector's range checked by the caller) straight into their
         * groups' open buffers, then sends the buffers that filled. The run is as long as the
         * group with the least room can take, so no tuple of it needs a room check: the loop is a load of the
         * group's write address, two loads and two stores, with no dependency but the address through {@link
         * #positions} (measured: about 1.3 ns a tuple fewer than staging the run in a heap array and copying it
         * over). Loads and stores go through {@link PlainSegments#WHOLE_MEMORY}: no per-tuple bounds, liveness or
         * segment-class check (a worker's registered buffers are mapped segments, and a JVM that sees several segment
         * classes kept the JDK's checks as calls: a third of a SHUFFLE thread's samples); this room check keeps every
         * store inside an open buffer. Returns the tuples done.
         */
        private int addPairs(long source, int first, int remaining) {
            MemorySegment memory = PlainSegments.WHOLE_MEMORY;
            long[] positions = this.positions;
            int run = remaining;
            for (int group = 0; group < positions.length; group++) {
                MemorySegment payload = payloads[group];
                if (payload == null) {
                    payload = open(group);
                }
                positions[group] = payload.address() + lengths[group];
                run = Math.min(run, (limits[group] + PAIR_BYTES - lengths[group]) / PAIR_BYTES);
            }
            int[] groupOf = this.groupOf;
            for (int i = 0; i < run; i++) {
                int group = groupOf[first + i];
                long tuple = source + (long) i * PAIR_BYTES;
                long address = positions[group];
                positions[group] = address + PAIR_BYTES;
                memory.set(WORD, address, memory.get(WORD, tuple));
                memory.set(WORD, address + Long.BYTES, memory.get(WORD, tuple + Long.BYTES));
            }
            for (int group = 0; group < positions.length; group++) {
                int length = (int) (positions[group] - payloads[group].address());
                lengths[group] = length;
                if (length > limits[group]) {
                    send(group, StreamState.MORE_DATA);
                }
            }
            return run;
        }

        /**
         * One group (broadcast): every tuple goes to it, so the vector is copied into the group's buffers as it is,
         * without asking the partitioner.
         */
        private void addToSingleGroup(MemorySegment tuples, long offset, int count) {
            copyWhole(0, tuples, offset, (long) count * tupleBytes);
        }

        /**
         * Copies {@code bytes} of whole tuples from {@code from} at {@code offset} into {@code group}'s buffers, a
         * buffer's worth of whole tuples at a time, sending each buffer that fills.
         */
        private void copyWhole(int group, MemorySegment from, long offset, long bytes) {
            while (bytes > 0) {
                if (payloads[group] == null) {
                    open(group);
                }
                int length = lengths[group];
                long room = (long) (limits[group] + tupleBytes - length) / tupleBytes * tupleBytes;
                long take = Math.min(room, bytes);
                MemorySegment.copy(from, offset, payloads[group], length, take);
                offset += take;
                bytes -= take;
                length += (int) take;
                lengths[group] = length;
                if (length > limits[group]) {
                    send(group, StreamState.MORE_DATA);
                }
            }
        }

        /** Any width: one tuple at a time into its group's open buffer. */
        private void addEach(MemorySegment tuples, long offset, int count) {
            int[] groupOf = this.groupOf;
            int width = tupleBytes;
            boolean twoWords = width == PAIR_BYTES;
            for (int i = 0; i < count; i++) {
                long tuple = offset + (long) i * width;
                int group = groupOf[i];
                MemorySegment payload = payloads[group];
                if (payload == null) {
                    payload = open(group);
                }
                int length = lengths[group];
                if (twoWords) {
                    payload.set(WORD, length, tuples.get(WORD, tuple));
                    payload.set(WORD, length + Long.BYTES, tuples.get(WORD, tuple + Long.BYTES));
                } else {
                    MemorySegment.copy(tuples, tuple, payload, length, width);
                }
                length += width;
                lengths[group] = length;
                if (length > limits[group]) {
                    send(group, StreamState.MORE_DATA);
                }
            }
        }

        /**
         * The payload of {@code group}'s open buffer, acquiring one (waiting while none is free) when the group has
         * none: for callers that encode variable-size rows straight into the buffer instead of {@link #add}ing
         * fixed-width tuples. They keep the fill level with {@link #length(int, int)} and send a full buffer with
         * {@link #send(int)}.
         */
        public MemorySegment payload(int group) {
            MemorySegment payload = payloads[group];
            return payload != null ? payload : open(group);
        }

        /** Bytes filled of {@code group}'s open buffer (0 when it has none). */
        public int length(int group) {
            return payloads[group] == null ? 0 : lengths[group];
        }

        /** Sets the bytes filled of {@code group}'s open buffer (see {@link #payload(int)}). */
        public void length(int group, int bytes) {
            lengths[group] = bytes;
        }

        /** Sends {@code group}'s open buffer now (MORE_DATA); the next {@link #payload(int)} acquires a new one. */
        public void send(int group) {
            if (output[group] != null) {
                send(group, StreamState.MORE_DATA);
            }
        }

        /**
         * {@link #payload(int)} without waiting: true when {@code group} has an open buffer, acquiring one if one is
         * free now ({@link SendEndpoint#tryAcquire}); false when none is.
         */
        public boolean tryOpen(int group) {
            if (payloads[group] != null) {
                return true;
            }
            ShuffleBuffer buffer = endpoint.tryAcquire();
            if (buffer == null) {
                return false;
            }
            open(group, buffer);
            return true;
        }

        /**
         * {@link #send(int)} without waiting: sends {@code group}'s open buffer if the endpoint has the credit for it
         * now ({@link SendEndpoint#canPut}) and returns true (also when none is open); false, keeping the buffer open
         * and filled, when it has not.
         */
        public boolean trySend(int group) {
            ShuffleBuffer buffer = output[group];
            if (buffer == null) {
                return true;
            }
            buffer.payloadLength(lengths[group]);
            if (!endpoint.canPut(buffer, groups.members(group), StreamState.MORE_DATA)) {
                return false;
            }
            send(group, StreamState.MORE_DATA);
            return true;
        }

        /**
         * {@link #finish()} without waiting: does what it can of the finish and returns whether it is complete; call
         * again (when the endpoint may have a buffer or credit) until it is. The same end-of-stream rules and messages
         * as {@link #finish()} (with ME and disjoint groups each group's open buffer, or an empty one, goes out as its
         * DEPLETED: each step needs one buffer and one credit per destination). Then waits for nothing the endpoint
         * left pending ({@link SendEndpoint#tryFlush}).
         */
        public boolean tryFinish() {
            if (finished) {
                return true;
            }
            if (!flushedForFinish && (sharedEndpoint || !disjointGroups)) {
                for (int group = 0; group < output.length; group++) {
                    if (!trySend(group)) {
                        return false;
                    }
                }
                flushedForFinish = true;
            }
            if (sharedEndpoint) {
                if (!countedDown) {
                    countedDown = true;
                    lastThread = unfinishedThreads.decrementAndGet() == 0;
                }
                if (lastThread && !trySendEmptyDepleted()) {
                    return false;
                }
            } else if (disjointGroups) {
                while (nextDepletedGroup < output.length) {
                    int group = nextDepletedGroup;
                    if (!tryOpen(group)) {
                        return false;
                    }
                    ShuffleBuffer buffer = output[group];
                    buffer.payloadLength(lengths[group]);
                    if (!endpoint.canPut(buffer, groups.members(group), StreamState.DEPLETED)) {
                        return false;
                    }
                    send(group, StreamState.DEPLETED);
                    nextDepletedGroup++;
                }
            } else if (!trySendEmptyDepleted()) {
                return false;
            }
            if (!endpoint.tryFlush()) {
                return false;
            }
            finished = true;
            return true;
        }

        private boolean trySendEmptyDepleted() {
            if (emptyDepletedSent) {
                return true;
            }
            if (emptyDepleted == null && (emptyDepleted = endpoint.tryAcquire()) == null) {
                return false;
            }
            if (!endpoint.canPut(emptyDepleted, allDestinations, StreamState.DEPLETED)) {
                return false;
            }
            endpoint.putData(emptyDepleted, allDestinations, StreamState.DEPLETED);
            emptyDepleted = null;
            emptyDepletedSent = true;
            return true;
        }

        private MemorySegment open(int group) {
            return open(group, endpoint.acquire());
        }

        private MemorySegment open(int group, ShuffleBuffer buffer) {
            output[group] = buffer;
            payloads[group] = buffer.payload();
            lengths[group] = buffer.payloadLength();
            limits[group] = buffer.payloadCapacity() - tupleBytes;
            if (limits[group] < buffer.payloadLength()) {
                throw new IllegalArgumentException("a buffer's payload holds no tuple: payloadCapacity="
                        + buffer.payloadCapacity() + ", tupleBytes=" + tupleBytes);
            }
            return payloads[group];
        }

        /** Sends the open buffer of {@code group}. */
        private void send(int group, StreamState state) {
            ShuffleBuffer buffer = output[group];
            buffer.payloadLength(lengths[group]);
            output[group] = null;
            payloads[group] = null;
            endpoint.putData(buffer, groups.members(group), state);
        }

        /**
         * Flushes this thread's buffers and, if it is the endpoint's last thread, ends the stream. Resumes where a
         * {@link #tryFinish} that could not complete stopped (a yielded finish whose wait stalled comes here): no
         * buffer is sent twice, the shared endpoint's thread count goes down once, every group or destination gets
         * one DEPLETED.
         */
        public void finish() {
            if (finished) {
                return;
            }
            finished = true;
            if (sharedEndpoint) {
                // flush first, count down after: once the last thread sees zero, every other thread's buffers
                // are posted, so its DEPLETED is the last message on each queue pair (RC keeps posting order)
                flushAll(StreamState.MORE_DATA);
                if (!countedDown) {
                    countedDown = true;
                    lastThread = unfinishedThreads.decrementAndGet() == 0;
                }
                if (lastThread) {
                    sendEmptyDepleted();
                }
            } else if (disjointGroups) {
                // groups a tryFinish ended already are skipped; the others' open buffers go out as DEPLETED
                for (; nextDepletedGroup < output.length; nextDepletedGroup++) {
                    if (output[nextDepletedGroup] == null) {
                        open(nextDepletedGroup); // DEPLETED must reach every member, even with nothing left
                    }
                    send(nextDepletedGroup, StreamState.DEPLETED);
                }
            } else {
                flushAll(StreamState.MORE_DATA);
                sendEmptyDepleted();
            }
            endpoint.flush();
        }

        /** The empty DEPLETED to every destination, unless a {@link #tryFinish} sent it (or acquired its buffer). */
        private void sendEmptyDepleted() {
            if (emptyDepletedSent) {
                return;
            }
            ShuffleBuffer empty = emptyDepleted != null ? emptyDepleted : endpoint.acquire();
            emptyDepleted = null;
            endpoint.putData(empty, allDestinations, StreamState.DEPLETED);
            emptyDepletedSent = true;
        }

        private void flushAll(StreamState state) {
            for (int group = 0; group < output.length; group++) {
                if (output[group] == null) {
                    if (state == StreamState.MORE_DATA) {
                        continue;
                    }
                    open(group); // DEPLETED must reach every member, even with nothing left
                }
                send(group, state);
            }
        }
    }
}
