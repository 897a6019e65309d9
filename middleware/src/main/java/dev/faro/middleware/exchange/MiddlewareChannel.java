package dev.faro.middleware.exchange;

import dev.faro.fabric.FaroException;
import dev.faro.middleware.ShuffleQueues;
import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.endpoint.WaitLoop;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import dev.faro.shuffle.transport.HeldBuffers;
import dev.faro.shuffle.transport.PolledStep;
import dev.faro.shuffle.transport.ReadinessPoller;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.stream.IntStream;

/**
 * One exchange at one node over the shared DAIS16 rings. An engine buffer is one middleware record of the exchange's
 * operator id; buffers of every exchange travel mixed in the rings of a worker pair.
 *
 * <p>Same process: a buffer for this node's own receiving thread {@code t} is handed over by reference
 * ({@link LocalBuffers}, the paper's same-process shortcut): no copy, no ring. Only its end of stream goes through
 * the ring, after every buffer handed over, so a receiver that sees the ring's end has every handed buffer in its
 * queue already.
 *
 * <p>Copies to other nodes: the engine fills a buffer of the sending thread's own (one per group, allocated at open)
 * in place, and {@link ExchangeSender#send} copies it into the outgoing ring, as the paper's {@code send} copies a row
 * into the ring. Filling the ring in place is not possible: several engine threads append to the ring of a worker pair (the
 * producing pipelines of every open exchange that run as thread {@code t}), and a record reserved but not yet filled
 * would hold back every record after it. The receiving thread gets a record copied out of the ring (or out of the
 * demux queue, when a thread reading for another exchange met it first) into a buffer of its own, read in place by
 * the engine and released at once. So two memory copies per buffer besides the WRITE, each of at most 32 KiB, against
 * the engine's per-row decoding of the same bytes.
 *
 * <p>End of stream: sending thread {@code t} ends with one end-of-stream record to worker {@code t} of every
 * receiving node, so the receiving thread {@code t} ends after one per node (every node sends in all three kinds of
 * exchange).
 *
 * <p>Waits go through the shuffle layer's {@link WaitLoop} (spin, park, stall after the stall timeout with no progress
 * anywhere in the query). A thread waiting for ring space pushes its worker out ({@link ShuffleQueues#push}: writes
 * out every ring whatever the write threshold and returns the space read), so nothing it holds keeps a peer waiting;
 * it does not read for the receivers (the paper's blocked worker does), since the engine runs every exchange's
 * receivers alongside its senders, and rows read ahead for a slower receiver would pile up on the heap. A receiver
 * reading its exchange moves the other exchanges' rows it meets into their demux queues, so a ring never stays
 * blocked behind an exchange whose receiver has not started.
 *
 * <p>Yielding: every wait has a non-blocking form ({@link ExchangeSender#tryPayload}, {@link ExchangeSender#trySend},
 * {@link ExchangeSender#tryFinish}, {@link ExchangeReceiver#poll}): one try of the same step, resumed where it stopped
 * (a send to several members, the ends to several nodes); the {@link ReadinessPoller} retries it for a yielded driver.
 * A wait that stalled there is made once more as the blocking call, whose wait loop fails it with its own words.
 *
 * <p>Threads: senders and receivers are thread-confined; a worker is used under its {@link WorkerLock}. Data path:
 * allocation-free after the first {@link #sender} / {@link #receiver} call of a thread.
 */
final class MiddlewareChannel implements ExchangeChannel {

    private final NodeMiddleware node;
    private final NodeMiddleware.Lease lease;
    private final String name;
    private final TransmissionGroups groups;
    private final int nodes;
    private final int threads;
    private final boolean receives;
    private final int nodeIndex;
    /** The nodes that receive anything: the union of the groups' members. */
    private final int[] receivingNodes;
    /** Per engine thread: the buffers handed from its sender to its receiver at this node, created at first use. */
    private final LocalBuffers[] local;

    private final Arena arena = Arena.ofShared();
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final Sender[] senders;
    private final Receiver[] receivers;
    private final HeldBuffers held = new HeldBuffers();
    private final long stallNanos;
    private final ProgressSignal progress;
    private volatile boolean closed;

    MiddlewareChannel(
            NodeMiddleware node,
            NodeMiddleware.Lease lease,
            String exchangeName,
            TransmissionGroups groups,
            int nodeIndex,
            int threads,
            Duration stallTimeout,
            ProgressSignal progress) {
        this.node = node;
        this.lease = lease;
        this.name = "DAIS16 exchange " + exchangeName + " (operator " + lease.operator() + ") at node " + nodeIndex;
        this.groups = groups;
        this.nodes = groups.nodes();
        this.threads = threads;
        this.receives = groups.receives(nodeIndex);
        this.nodeIndex = nodeIndex;
        this.local = new LocalBuffers[threads];
        this.receivingNodes = IntStream.range(0, nodes).filter(groups::receives).toArray();
        this.failure = new EndpointFailure(name);
        this.waits = new WaitLoop(failure, stallTimeout, progress);
        this.stallNanos = stallTimeout.toNanos();
        this.progress = progress;
        this.senders = new Sender[threads];
        this.receivers = new Receiver[threads];
    }

    @Override
    public boolean receives() {
        return receives;
    }

    @Override
    public synchronized ExchangeSender sender(int thread) {
        checkThread(thread);
        if (senders[thread] == null) {
            senders[thread] = new Sender(thread);
        }
        return senders[thread];
    }

    @Override
    public synchronized ExchangeReceiver receiver(int thread) {
        checkThread(thread);
        if (receivers[thread] == null) {
            receivers[thread] = new Receiver(thread);
        }
        return receivers[thread];
    }

    /** The same-process shortcut of {@code thread}; only at a node that receives. */
    private synchronized LocalBuffers local(int thread) {
        if (local[thread] == null) {
            local[thread] = new LocalBuffers(thread, arena);
        }
        return local[thread];
    }

    private void checkThread(int thread) {
        if (thread < 0 || thread >= threads) {
            throw new IllegalArgumentException("thread must be in 0.." + (threads - 1) + ": " + thread);
        }
        if (closed) {
            throw new FaroException(FaroException.Category.CLOSED, name + " is closed");
        }
    }

    @Override
    public int buffersHeldHighWater() {
        return held.highWater();
    }

    /** Frees the buffers and the operator id; streams that did not all end mark the shared rings stale. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        boolean clean = !failure.failed();
        for (int t = 0; t < threads; t++) {
            clean &= senders[t] != null && senders[t].finished;
            clean &= !receives || (receivers[t] != null && receivers[t].ended);
        }
        node.release(lease, clean);
        arena.close();
    }

    /** Records a middleware failure as this exchange's first error and throws the winner. */
    private RuntimeException failed(FaroException cause) {
        throw failure.fail(cause.getMessage());
    }

    private final class Sender extends ReadinessPoller.Waiter implements ExchangeSender {
        private static final int OPEN = 0;
        private static final int SEND = 1;
        private static final int FINISH = 2;

        private final int thread;
        private final ShuffleQueues worker;
        private final WorkerLock lock;
        private final MemorySegment[] buffers;
        private final int[] fill;
        private final boolean[] open;
        /** Per group: whether this node is a member (its buffers come from {@link #shortcut}). */
        private final boolean[] toSelf;
        /** Per group with this node: the shortcut buffer being filled (kept while it is empty), else null. */
        private final ShuffleBuffer[] handed;
        /** Null when this node receives nothing. */
        private final LocalBuffers shortcut;

        private final WaitLoop.Step appendStep = this::tryAppend;
        private final WaitLoop.Step endStep = this::tryEnd;
        private final WaitLoop.Step freeStep = this::tryTakeFree;
        /** The group whose buffer {@link #appendStep} appends, or {@link #freeStep} takes a shortcut buffer for. */
        private int appending;
        /** A non-blocking send's next member of its group, and a non-blocking finish's next receiving node. */
        private int nextMember;

        private int nextEnd;
        /** What the last try that did not proceed was ({@link #OPEN}, {@link #SEND}, {@link #FINISH}), and its group. */
        private int waiting;

        private int waitingGroup;

        boolean finished;

        Sender(int thread) {
            super(stallNanos, progress);
            this.thread = thread;
            this.worker = lease.workers()[thread];
            this.lock = lease.locks()[thread];
            int groupCount = groups.groupCount();
            this.buffers = new MemorySegment[groupCount];
            this.toSelf = new boolean[groupCount];
            this.handed = new ShuffleBuffer[groupCount];
            for (int group = 0; group < groupCount; group++) {
                for (int member : groups.members(group)) {
                    toSelf[group] |= member == nodeIndex;
                }
                if (!toSelf[group]) {
                    buffers[group] = arena.allocate(NodeMiddleware.BUFFER_BYTES, 8);
                }
            }
            this.shortcut = receives ? local(thread) : null;
            this.fill = new int[groupCount];
            this.open = new boolean[groupCount];
        }

        @Override
        public MemorySegment payload(int group) {
            failure.check();
            if (!open[group]) {
                if (toSelf[group] && handed[group] == null) {
                    appending = group;
                    await(freeStep, group, "no buffer handed back by this node's receiving thread");
                    buffers[group] = handed[group].payload();
                }
                open[group] = true;
                fill[group] = 0;
                held.hold();
            }
            return buffers[group];
        }

        @Override
        public MemorySegment tryPayload(int group) {
            if (takeStall()) {
                return payload(group);
            }
            failure.check();
            if (!open[group]) {
                if (toSelf[group] && handed[group] == null) {
                    if (attempt(freeStep, group) == WaitLoop.IDLE) {
                        waiting = OPEN;
                        waitingGroup = group;
                        return null;
                    }
                    buffers[group] = handed[group].payload();
                }
                open[group] = true;
                fill[group] = 0;
                held.hold();
            }
            return buffers[group];
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
            if (fill[group] > 0 && !tryDeliver(group)) {
                waiting = SEND;
                waitingGroup = group;
                return false;
            }
            open[group] = false;
            held.release();
            fill[group] = 0;
            return true;
        }

        /** {@link #deliver} without waiting, resumed at {@link #nextMember}; false when a ring has no room. */
        private boolean tryDeliver(int group) {
            appending = group;
            int[] members = groups.members(group);
            for (; nextMember < members.length; nextMember++) {
                int member = members[nextMember];
                if (member != nodeIndex && attempt(appendStep, member * threads + thread) == WaitLoop.IDLE) {
                    return false;
                }
            }
            nextMember = 0;
            handToSelf(group);
            return true;
        }

        /** Hands the group's buffer to this node's receiving thread if this node is a member. */
        private void handToSelf(int group) {
            if (toSelf[group]) {
                ShuffleBuffer buffer = handed[group];
                handed[group] = null;
                buffer.payloadLength(fill[group]);
                shortcut.full.offer(buffer);
            }
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
            for (int group = 0; group < open.length; group++) {
                if (!trySend(group)) {
                    waiting = FINISH;
                    return false;
                }
            }
            for (; nextEnd < receivingNodes.length; nextEnd++) {
                if (attempt(endStep, receivingNodes[nextEnd] * threads + thread) == WaitLoop.IDLE) {
                    waiting = FINISH;
                    return false;
                }
            }
            finished = true;
            return true;
        }

        private int attempt(WaitLoop.Step step, int destination) {
            try {
                return waits.attempt(step, destination);
            } catch (FaroException e) {
                throw failed(e);
            }
        }

        @Override
        protected boolean retry() {
            return switch (waiting) {
                case OPEN -> tryPayload(waitingGroup) != null;
                case SEND -> trySend(waitingGroup);
                default -> tryFinish();
            };
        }

        @Override
        public int length(int group) {
            return open[group] ? fill[group] : 0;
        }

        @Override
        public void length(int group, int bytes) {
            if (bytes < 0 || bytes > NodeMiddleware.BUFFER_BYTES) {
                throw new IllegalArgumentException(
                        "length out of range: bytes=" + bytes + " capacity=" + NodeMiddleware.BUFFER_BYTES);
            }
            fill[group] = bytes;
        }

        @Override
        public void send(int group) {
            if (!open[group]) {
                return;
            }
            open[group] = false;
            held.release();
            if (fill[group] > 0) {
                deliver(group);
            }
            fill[group] = 0;
        }

        /**
         * Appends the group's buffer to the ring towards worker {@code thread} of each other member, waiting for room,
         * then hands it to this node's receiving thread if this node is a member. Resumes at {@link #nextMember} where
         * a {@link #tryDeliver} stopped (a yielded send whose wait stalled comes here), so no member gets it twice.
         */
        private void deliver(int group) {
            appending = group;
            int[] members = groups.members(group);
            for (; nextMember < members.length; nextMember++) {
                int member = members[nextMember];
                if (member != nodeIndex) {
                    await(appendStep, member * threads + thread, "no ring space freed");
                }
            }
            nextMember = 0;
            handToSelf(group);
        }

        /** Takes a free shortcut buffer; while none is, pushes the worker out so nothing this thread holds waits. */
        private int tryTakeFree(int group) {
            ShuffleBuffer buffer = shortcut.free.poll();
            if (buffer == null) {
                lock.lock();
                try {
                    worker.push();
                } finally {
                    lock.unlock();
                }
                return WaitLoop.IDLE;
            }
            handed[group] = buffer;
            return WaitLoop.DONE;
        }

        @Override
        public void finish() {
            if (finished) {
                return;
            }
            for (int group = 0; group < open.length; group++) {
                send(group);
            }
            // resumes at nextEnd where a tryFinish stopped: no receiver gets this sender's end twice
            for (; nextEnd < receivingNodes.length; nextEnd++) {
                await(endStep, receivingNodes[nextEnd] * threads + thread, "no ring space freed for the end of stream");
            }
            finished = true;
        }

        private void await(WaitLoop.Step step, int destination, String what) {
            int result;
            try {
                result = waits.await(step, destination, null);
            } catch (FaroException e) {
                throw failed(e);
            }
            if (result == WaitLoop.STALLED) {
                throw waits.fail(what + " for " + waits.stall() + " (sending to worker " + destination + ")");
            }
        }

        private int tryAppend(int destination) {
            lock.lock();
            try {
                if (worker.trySend(destination, lease.operator(), buffers[appending], 0, fill[appending])) {
                    return WaitLoop.DONE;
                }
                worker.push();
                return WaitLoop.IDLE;
            } finally {
                lock.unlock();
            }
        }

        private int tryEnd(int destination) {
            lock.lock();
            try {
                if (worker.tryEndOfStream(destination, lease.operator())) {
                    return WaitLoop.DONE;
                }
                worker.push();
                return WaitLoop.IDLE;
            } finally {
                lock.unlock();
            }
        }
    }

    private final class Receiver extends ReadinessPoller.Waiter implements ExchangeReceiver {
        /** {@link #tryPoll}'s result when it took a handed buffer (not a length: lengths are at most 32 KiB). */
        private static final int HANDED = Integer.MAX_VALUE;

        private final ShuffleQueues worker;
        private final WorkerLock lock;
        private final ShuffleBuffer buffer;
        private final MemorySegment payload;
        private final LocalBuffers shortcut;
        private final WaitLoop.Step pollStep = this::tryPoll;
        /** The handed buffer {@link #tryPoll} took. */
        private ShuffleBuffer taken;
        /** The ring's stream ended; only handed buffers are left. */
        private boolean ringEnded;
        /** {@link #pollStep}, tried by poll and by the poller's retry. */
        private final PolledStep polled = new PolledStep(waits, pollStep);

        boolean ended;

        Receiver(int thread) {
            super(stallNanos, progress);
            this.worker = lease.workers()[thread];
            this.lock = lease.locks()[thread];
            this.shortcut = receives ? local(thread) : null;
            MemorySegment segment = arena.allocate(MessageHeaderDescriptor.LENGTH + NodeMiddleware.BUFFER_BYTES, 8);
            this.buffer = new ShuffleBuffer(thread, segment);
            this.payload = buffer.payload();
        }

        @Override
        public ShuffleBuffer take() {
            if (ended || !receives) {
                ended = true;
                return null;
            }
            int length;
            if (ringEnded) {
                length = WaitLoop.END_OF_STREAM;
            } else {
                try {
                    length = waits.awaitOrFail(pollStep, 0, null, "no data arrived", " (waiting for end of stream)");
                } catch (FaroException e) {
                    throw failed(e);
                }
            }
            return handOut(length);
        }

        @Override
        public ShuffleBuffer poll() {
            if (takeStall()) {
                return take();
            }
            if (ended || !receives) {
                ended = true;
                return null;
            }
            int length;
            if (ringEnded) {
                length = WaitLoop.END_OF_STREAM;
            } else {
                try {
                    length = polled.poll();
                } catch (FaroException e) {
                    throw failed(e);
                }
                if (length == WaitLoop.IDLE) {
                    return NOT_YET;
                }
            }
            return handOut(length);
        }

        @Override
        protected boolean retry() {
            return polled.retry();
        }

        /** Hands out what a poll step found: a length of the ring's record, a handed buffer, or the end. */
        private ShuffleBuffer handOut(int found) {
            int length = found;
            if (length == WaitLoop.END_OF_STREAM) {
                ringEnded = true;
                // this node's sender handed every buffer over before its end of stream entered the ring
                taken = shortcut.full.poll();
                if (taken == null) {
                    ended = true;
                    return null;
                }
                length = HANDED;
            }
            held.hold();
            if (length == HANDED) {
                ShuffleBuffer handed = taken;
                taken = null;
                return handed;
            }
            buffer.payloadLength(length);
            return buffer;
        }

        @Override
        public void release(ShuffleBuffer released) {
            held.release();
            if (released != buffer) {
                shortcut.free.offer(released);
            }
        }

        private int tryPoll(int unused) {
            taken = shortcut.full.poll();
            if (taken != null) {
                return HANDED;
            }
            int result;
            lock.lock();
            try {
                result = worker.poll(lease.operator(), payload, nodes);
            } finally {
                lock.unlock();
            }
            if (result == ShuffleQueues.END) {
                return WaitLoop.END_OF_STREAM;
            }
            return result == ShuffleQueues.NONE ? WaitLoop.IDLE : result;
        }
    }
}
