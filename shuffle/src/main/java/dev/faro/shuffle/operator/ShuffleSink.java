package dev.faro.shuffle.operator;

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
     * in arrays, so the per-tuple loop touches no object but the tuple's bytes; the fill level reaches the buffer
     * when it goes out. Data path: allocation-free after construction (the group array grows only for a larger
     * vector than any before).
     */
    public final class Writer {
        private final SendEndpoint endpoint;
        private final ShuffleBuffer[] output;
        private final MemorySegment[] payloads;
        /** Bytes filled of each group's open buffer. */
        private final int[] lengths;
        /** The fill level at which a group's open buffer has no room for another tuple. */
        private final int[] limits;

        private int[] groupOf = new int[1024];
        private boolean finished;

        private Writer(SendEndpoint endpoint) {
            this.endpoint = endpoint;
            int count = groups.groupCount();
            this.output = new ShuffleBuffer[count];
            this.payloads = new MemorySegment[count];
            this.lengths = new int[count];
            this.limits = new int[count];
        }

        /** Partitions and copies {@code count} tuples starting at {@code offset}. */
        public void add(MemorySegment tuples, long offset, int count) {
            if (groupOf.length < count) {
                groupOf = new int[count];
            }
            int[] groupOf = this.groupOf;
            partitioner.groups(tuples, offset, tupleBytes, count, groupOf);
            int width = tupleBytes;
            boolean twoWords = width == 2 * Long.BYTES;
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

        private MemorySegment open(int group) {
            ShuffleBuffer buffer = endpoint.acquire();
            output[group] = buffer;
            payloads[group] = buffer.payload();
            lengths[group] = buffer.payloadLength();
            limits[group] = buffer.payloadCapacity() - tupleBytes;
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

        /** Flushes this thread's buffers and, if it is the endpoint's last thread, ends the stream. */
        public void finish() {
            if (finished) {
                return;
            }
            finished = true;
            if (sharedEndpoint) {
                // flush first, count down after: once the last thread sees zero, every other thread's buffers
                // are posted, so its DEPLETED is the last message on each queue pair (RC keeps posting order)
                flushAll(StreamState.MORE_DATA);
                if (unfinishedThreads.decrementAndGet() == 0) {
                    sendEmptyDepleted();
                }
            } else if (disjointGroups) {
                flushAll(StreamState.DEPLETED);
            } else {
                flushAll(StreamState.MORE_DATA);
                sendEmptyDepleted();
            }
        }

        private void sendEmptyDepleted() {
            ShuffleBuffer empty = endpoint.acquire();
            endpoint.putData(empty, allDestinations, StreamState.DEPLETED);
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
