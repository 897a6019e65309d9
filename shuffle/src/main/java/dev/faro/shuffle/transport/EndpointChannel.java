package dev.faro.shuffle.transport;

import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.operator.ShuffleSink;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * An {@link ExchangeChannel} over a node's shuffle endpoints (any of the eight designs, or the TCP baseline's): the
 * send side is the SHUFFLE operator's {@link ShuffleSink.Writer} (one open buffer per group, its end-of-stream rules
 * for shared and per-thread endpoints), the receive side GETDATA / RELEASE of the thread's receive endpoint.
 *
 * <p>Non-blocking forms: {@link ExchangeSender#tryPayload} is the endpoint's non-blocking acquire,
 * {@link ExchangeSender#trySend} sends when the endpoint has the credit ({@link
 * dev.faro.shuffle.endpoint.SendEndpoint#canPut}), {@link ExchangeSender#tryFinish} is the writer's resumable finish,
 * {@link ExchangeReceiver#poll} the endpoint's non-blocking GETDATA. A try that cannot proceed is retried by the
 * {@link ReadinessPoller} (the designs and TCP make progress only when polled), which completes the waiter's stage.
 * A wait that saw no progress in the query for the stall timeout is made once more as the blocking call, inside the
 * endpoint, whose wait loop then fails it with what is missing (which nodes have not ended their streams) as the
 * endpoint's first error, or carries on if progress resumes: so a genuine stall fails after about two stall timeouts.
 *
 * <p>Threads: senders and receivers are thread-confined; the held-buffer counters are shared atomics, touched once
 * per buffer. Data path: allocation-free after the first {@link #sender} / {@link #receiver} call of a thread (a
 * wait allocates its stage).
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
    /**
     * Set before the endpoints close: a waiter the readiness poller still retries (its driver was abandoned when the
     * query failed) completes at once instead of polling endpoints that are closing.
     */
    private volatile boolean closed;

    private final long stallNanos;
    private final ProgressSignal progress;

    EndpointChannel(
            NodeEndpoints endpoints,
            TransmissionGroups groups,
            int nodeIndex,
            int threads,
            Duration stallTimeout,
            ProgressSignal progress) {
        this(endpoints, endpoints::close, groups, nodeIndex, threads, stallTimeout, progress);
    }

    /**
     * @param closer ends the exchange: closes the endpoints, or gives them back to the node's endpoint sets
     * @param stallTimeout how long a yielded sender or receiver may wait while {@code progress} does not change
     */
    EndpointChannel(
            NodeEndpoints endpoints,
            Runnable closer,
            TransmissionGroups groups,
            int nodeIndex,
            int threads,
            Duration stallTimeout,
            ProgressSignal progress) {
        this.endpoints = endpoints;
        this.closer = closer;
        this.stallNanos = stallTimeout.toNanos();
        this.progress = progress;
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
        closed = true;
        closer.run();
    }

    /** Gives the endpoints' streams up, then ends as {@link #close}: a set of abandoned endpoints is not reused. */
    @Override
    public void abandon() {
        closed = true;
        endpoints.abandon();
        closer.run();
    }

    private final class Sender extends ReadinessPoller.Waiter implements ExchangeSender {
        private static final int NONE = -2;
        private static final int FINISH = -1;

        private final ShuffleSink.Writer writer;
        private final boolean[] open = new boolean[groupCount];
        private boolean finished;
        /** What the last try that did not proceed was: a group's acquire ({@code group}) or send, or the finish. */
        private int waitingGroup = NONE;

        private boolean waitingForSend;

        Sender(ShuffleSink.Writer writer) {
            super(stallNanos, progress);
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
        public MemorySegment tryPayload(int group) {
            if (takeStall()) {
                return payload(group);
            }
            if (!writer.tryOpen(group)) {
                waitingGroup = group;
                waitingForSend = false;
                return null;
            }
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
        public boolean trySend(int group) {
            if (takeStall()) {
                send(group);
                return true;
            }
            if (!open[group]) {
                return true;
            }
            if (!writer.trySend(group)) {
                waitingGroup = group;
                waitingForSend = true;
                return false;
            }
            open[group] = false;
            held.release();
            return true;
        }

        @Override
        public void finish() {
            if (finished) {
                return;
            }
            finished = true;
            releaseOpen();
            writer.finish();
        }

        @Override
        public boolean tryFinish() {
            if (finished) {
                return true;
            }
            if (takeStall()) {
                finish();
                return true;
            }
            if (!writer.tryFinish()) {
                waitingGroup = FINISH;
                return false;
            }
            finished = true;
            releaseOpen();
            return true;
        }

        private void releaseOpen() {
            for (int group = 0; group < groupCount; group++) {
                if (open[group]) {
                    open[group] = false;
                    held.release();
                }
            }
        }

        @Override
        protected boolean retry() {
            if (closed) {
                return true;
            }
            int group = waitingGroup;
            if (group == FINISH) {
                return writer.tryFinish();
            }
            return waitingForSend ? writer.trySend(group) : writer.tryOpen(group);
        }
    }

    private final class Receiver extends ReadinessPoller.Waiter implements ExchangeReceiver {
        private final ReceiveEndpoint endpoint;
        private boolean ended;
        /** What the poller's retry found (a buffer, or null at the end): handed out by the next poll. */
        private ShuffleBuffer found = NOT_YET;

        Receiver(ReceiveEndpoint endpoint) {
            super(stallNanos, progress);
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
        public ShuffleBuffer poll() {
            if (ended || !receives) {
                ended = true;
                return null;
            }
            if (takeStall()) {
                return take();
            }
            ShuffleBuffer buffer = found;
            if (buffer != NOT_YET) {
                found = NOT_YET;
            } else {
                buffer = endpoint.poll();
                if (buffer == NOT_YET) {
                    return NOT_YET;
                }
            }
            if (buffer == null) {
                ended = true;
                return null;
            }
            held.hold();
            return buffer;
        }

        @Override
        protected boolean retry() {
            if (closed) {
                return true;
            }
            ShuffleBuffer buffer = endpoint.poll();
            if (buffer == NOT_YET) {
                return false;
            }
            found = buffer;
            return true;
        }

        @Override
        public void release(ShuffleBuffer buffer) {
            held.release();
            endpoint.release(buffer);
        }
    }
}
