package dev.faro.shuffle.transport;

import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.operator.ShuffleSink;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.lang.foreign.MemorySegment;

/**
 * An {@link ExchangeChannel} over a node's shuffle endpoints (any of the eight designs, or the TCP baseline's): the
 * send side is the SHUFFLE operator's {@link ShuffleSink.Writer} (one open buffer per group, its end-of-stream rules
 * for shared and per-thread endpoints), the receive side GETDATA / RELEASE of the thread's receive endpoint.
 *
 * <p>Threads: senders and receivers are thread-confined; the held-buffer counters are shared atomics, touched once
 * per buffer. Data path: allocation-free after the first {@link #sender} / {@link #receiver} call of a thread.
 */
final class EndpointChannel implements ExchangeChannel {

    /** A tuple width the sink needs at construction; the senders here never add fixed-width tuples. */
    private static final int UNUSED_TUPLE_BYTES = 1;

    private final NodeEndpoints endpoints;
    private final ShuffleSink sink;
    private final int groupCount;
    private final boolean receives;
    private final Sender[] senders;
    private final Receiver[] receivers;
    private final HeldBuffers held = new HeldBuffers();

    private final Runnable closer;

    EndpointChannel(NodeEndpoints endpoints, TransmissionGroups groups, int nodeIndex, int threads) {
        this(endpoints, endpoints::close, groups, nodeIndex, threads);
    }

    /** @param closer ends the exchange: closes the endpoints, or gives them back to the node's endpoint sets */
    EndpointChannel(NodeEndpoints endpoints, Runnable closer, TransmissionGroups groups, int nodeIndex, int threads) {
        this.endpoints = endpoints;
        this.closer = closer;
        this.sink = new ShuffleSink(endpoints, groups, (tuples, offset) -> 0, UNUSED_TUPLE_BYTES, threads);
        this.groupCount = groups.groupCount();
        this.receives = groups.receives(nodeIndex);
        this.senders = new Sender[threads];
        this.receivers = new Receiver[threads];
    }

    @Override
    public boolean receives() {
        return receives;
    }

    @Override
    public synchronized ExchangeSender sender(int thread) {
        if (senders[thread] == null) {
            senders[thread] = new Sender(sink.writer(thread));
        }
        return senders[thread];
    }

    @Override
    public synchronized ExchangeReceiver receiver(int thread) {
        if (receivers[thread] == null) {
            receivers[thread] = new Receiver(endpoints.receiver(thread));
        }
        return receivers[thread];
    }

    @Override
    public int buffersHeldHighWater() {
        return held.highWater();
    }

    @Override
    public void close() {
        closer.run();
    }

    private final class Sender implements ExchangeSender {
        private final ShuffleSink.Writer writer;
        private final boolean[] open = new boolean[groupCount];
        private boolean finished;

        Sender(ShuffleSink.Writer writer) {
            this.writer = writer;
        }

        @Override
        public MemorySegment payload(int group) {
            if (!open[group]) {
                open[group] = true;
                held.hold();
            }
            return writer.payload(group);
        }

        @Override
        public int length(int group) {
            return writer.length(group);
        }

        @Override
        public void length(int group, int bytes) {
            writer.length(group, bytes);
        }

        @Override
        public void send(int group) {
            if (open[group]) {
                open[group] = false;
                held.release();
                writer.send(group);
            }
        }

        @Override
        public void finish() {
            if (finished) {
                return;
            }
            finished = true;
            for (int group = 0; group < groupCount; group++) {
                if (open[group]) {
                    open[group] = false;
                    held.release();
                }
            }
            writer.finish();
        }
    }

    private final class Receiver implements ExchangeReceiver {
        private final ReceiveEndpoint endpoint;
        private boolean ended;

        Receiver(ReceiveEndpoint endpoint) {
            this.endpoint = endpoint;
        }

        @Override
        public ShuffleBuffer take() {
            if (ended || !receives) {
                ended = true;
                return null;
            }
            ShuffleBuffer buffer = endpoint.getData();
            if (buffer == null) {
                ended = true;
                return null;
            }
            held.hold();
            return buffer;
        }

        @Override
        public void release(ShuffleBuffer buffer) {
            held.release();
            endpoint.release(buffer);
        }
    }
}
