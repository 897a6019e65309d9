package dev.faro.shuffle.operator;

import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.lang.foreign.MemorySegment;
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

    private final NodeEndpoints endpoints;
    private final TransmissionGroups groups;
    private final Partitioner partitioner;
    private final int tupleBytes;
    private final boolean sharedEndpoint;
    private final boolean disjointGroups;
    private final int[] allDestinations;
    private final AtomicInteger unfinishedThreads;

    public ShuffleSink(NodeEndpoints endpoints, TransmissionGroups groups, Partitioner partitioner, int tupleBytes,
            int threads) {
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
        this.disjointGroups = IntStream.range(0, groups.groupCount()).map(g -> groups.members(g).length).sum()
                == allDestinations.length;
    }

    /** The writer of thread {@code thread}; thread-confined. */
    public Writer writer(int thread) {
        return new Writer(endpoints.sender(thread));
    }

    /** One thread's output buffers. Data path: allocation-free after construction. */
    public final class Writer {
        private final SendEndpoint endpoint;
        private final ShuffleBuffer[] output;
        private boolean finished;

        private Writer(SendEndpoint endpoint) {
            this.endpoint = endpoint;
            this.output = new ShuffleBuffer[groups.groupCount()];
        }

        /** Partitions and copies {@code count} tuples starting at {@code offset}. */
        public void add(MemorySegment tuples, long offset, int count) {
            for (int i = 0; i < count; i++) {
                long tuple = offset + (long) i * tupleBytes;
                int group = partitioner.group(tuples, tuple);
                ShuffleBuffer buffer = output[group];
                if (buffer == null) {
                    buffer = endpoint.acquire();
                    output[group] = buffer;
                }
                int length = buffer.payloadLength();
                MemorySegment.copy(tuples, tuple, buffer.payload(), length, tupleBytes);
                length += tupleBytes;
                buffer.payloadLength(length);
                if (length + tupleBytes > buffer.payloadCapacity()) {
                    endpoint.putData(buffer, groups.members(group), StreamState.MORE_DATA);
                    output[group] = null;
                }
            }
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
                ShuffleBuffer buffer = output[group];
                output[group] = null;
                if (buffer == null) {
                    if (state == StreamState.MORE_DATA) {
                        continue;
                    }
                    buffer = endpoint.acquire(); // DEPLETED must reach every member, even with nothing left
                }
                endpoint.putData(buffer, groups.members(group), state);
            }
        }
    }
}
