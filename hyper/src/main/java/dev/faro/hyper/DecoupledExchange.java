package dev.faro.hyper;

import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.endpoint.WaitLoop;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import dev.faro.shuffle.transport.HeldBuffers;
import dev.faro.shuffle.transport.PolledStep;
import dev.faro.shuffle.transport.ReadinessPoller;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * One node's side of one decoupled exchange (VLDB16 §3.2.1): an exchange operator that knows no other exchange
 * operator, local or remote, and talks only to its node's {@link Multiplexer}.
 *
 * <ul>
 *   <li><b>Send.</b> Producing worker {@code t} fills one message per destination group, i.e. per destination
 *       <em>server</em>, not per remote thread, taken from the pool's free list of its worker group. A full (or, at
 *       finish, partial) message is retained once per destination and queued at the multiplexer's send queue of each
 *       remote destination; the node's own share bypasses the network and goes straight into this node's receive
 *       queue. A broadcast is one message with a retain count.</li>
 *   <li><b>Receive.</b> One receive queue per worker group; the network thread deals messages to them in turn, and
 *       own-node messages go to the sending worker's group. Consuming worker {@code t} takes from its own group's
 *       queue first and steals from the others only when it is empty: any worker of the destination consumes any
 *       message.</li>
 *   <li><b>Termination.</b> When the last local producing worker finished, the exchange queues one {@code isLast}
 *       marker per receiving peer (behind every message this node queued for it, on the same FIFO send queue and RC
 *       queue pair, so it arrives last) and counts its own end. A receiving node's workers see the end of stream once
 *       every node's end arrived (n per exchange) and the queues are empty.</li>
 * </ul>
 *
 * <p>Threads: a sender or receiver is confined to its worker; the receive queues are many-to-many; the end count is
 * an atomic written by the network thread and own-node finishing workers. Data path: allocation-free.
 *
 * <p>Yielding: a send never waits (the multiplexer's send queues take every message), so only acquiring a free message
 * and taking a received one have non-blocking forms ({@link ExchangeSender#tryPayload}, {@link ExchangeReceiver#poll});
 * a worker that cannot proceed is retried by the {@link ReadinessPoller}, like the designs' endpoints.
 */
final class DecoupledExchange implements ExchangeChannel {

    private final Multiplexer multiplexer;
    private final MessagePool pool;
    private final String name;
    private final TransmissionGroups groups;
    private final int threads;
    private final int self;
    private final int id;
    private final int[] peerIds;
    private final boolean receives;
    private final int expectedEnds;
    private final int[] receivingPeers;
    private final IndexQueue[] receiveQueues;
    private final AtomicInteger endsReceived = new AtomicInteger();
    private final AtomicInteger sendersFinished = new AtomicInteger();
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final Sender[] senders;
    private final Receiver[] receivers;
    private final HeldBuffers held = new HeldBuffers();
    private final long stallNanos;
    private final ProgressSignal progress;
    private volatile boolean closed;

    DecoupledExchange(
            Multiplexer multiplexer,
            String name,
            TransmissionGroups groups,
            int threads,
            Duration stallTimeout,
            ProgressSignal progress) {
        this.multiplexer = multiplexer;
        this.pool = multiplexer.pool();
        this.name = name;
        this.groups = groups;
        this.threads = threads;
        this.self = multiplexer.self();
        int nodes = multiplexer.nodes();
        if (groups.nodes() != nodes) {
            throw new IllegalArgumentException(
                    "the exchange's nodes differ from the multiplexer's: groups=" + groups.nodes() + " nodes=" + nodes);
        }
        this.receives = groups.receives(self);
        this.expectedEnds = receives ? nodes : 0;
        this.receivingPeers = IntStream.range(0, nodes)
                .filter(node -> node != self && groups.receives(node))
                .toArray();
        int workerGroups = multiplexer.config().workerGroups();
        this.receiveQueues = new IndexQueue[workerGroups];
        for (int g = 0; g < workerGroups; g++) {
            receiveQueues[g] = new IndexQueue(pool.size());
        }
        this.peerIds = new int[nodes];
        Arrays.fill(peerIds, -1);
        this.failure = new EndpointFailure("hyper exchange " + name + " at node " + self, multiplexer::describe);
        this.waits = new WaitLoop(failure, stallTimeout, progress);
        this.stallNanos = stallTimeout.toNanos();
        this.progress = progress;
        this.senders = new Sender[threads];
        this.receivers = new Receiver[threads];
        this.id = multiplexer.table().register(this);
        peerIds[self] = id;
    }

    int id() {
        return id;
    }

    String name() {
        return name;
    }

    /** The id node {@code peer} gave this exchange (-1 before the open's gather). */
    int peerId(int peer) {
        return peerIds[peer];
    }

    /** Records the peer's id and routes its messages here (at open, before the second gather). */
    void mapPeer(int peer, int peerId) {
        peerIds[peer] = peerId;
        multiplexer.table().map(peer, peerId, this);
    }

    // ------------------------------------------------------------------------------------------ network thread

    /** A received message (retained once) for this exchange: into the worker groups' queues in turn. */
    void deliver(int index, int rotation) {
        receiveQueues[(rotation & Integer.MAX_VALUE) % receiveQueues.length].offer(index);
        if (closed) {
            drainReceived();
        }
    }

    /** One node's end arrived (a peer's marker, or this node's own). */
    void onEnd() {
        endsReceived.incrementAndGet();
    }

    /** Fails the exchange (first error wins): every worker's next call throws it. */
    void fail(String message) {
        try {
            failure.fail(message);
        } catch (RuntimeException expected) {
            // recorded; the workers throw it
        }
    }

    // ------------------------------------------------------------------------------------------ channel

    @Override
    public boolean receives() {
        return receives;
    }

    @Override
    public synchronized ExchangeSender sender(int thread) {
        if (senders[thread] == null) {
            senders[thread] = new Sender(thread);
        }
        return senders[thread];
    }

    @Override
    public synchronized ExchangeReceiver receiver(int thread) {
        if (receivers[thread] == null) {
            receivers[thread] = new Receiver(thread);
        }
        return receivers[thread];
    }

    @Override
    public int buffersHeldHighWater() {
        return held.highWater();
    }

    /**
     * Frees the exchange's slot and gives back every message it still holds (after a failure: queued received
     * messages, workers' unsent messages). Messages already queued for peers are sent and released by the network
     * thread as usual.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        multiplexer.table().remove(this);
        drainReceived();
        synchronized (this) {
            for (Sender sender : senders) {
                if (sender != null) {
                    sender.recycleOpen();
                }
            }
        }
    }

    private void drainReceived() {
        for (IndexQueue queue : receiveQueues) {
            int index;
            while ((index = queue.poll(Multiplexer.EMPTY)) != Multiplexer.EMPTY) {
                multiplexer.release(pool.message(index));
            }
        }
    }

    @Override
    public String toString() {
        return "DecoupledExchange[" + name + ", id=" + id + ", node=" + self + "]";
    }

    /** A producing worker's side: one open message per destination group. */
    private final class Sender extends ReadinessPoller.Waiter implements ExchangeSender {
        private final int group;
        private final Message[] open;
        private final int[] lengths;
        private final WaitLoop.Step acquireStep;
        private boolean finished;
        /** The destination whose message a non-blocking acquire could not take. */
        private int waitingFor;

        Sender(int thread) {
            super(stallNanos, progress);
            this.group = thread % receiveQueues.length;
            this.open = new Message[groups.groupCount()];
            this.lengths = new int[groups.groupCount()];
            this.acquireStep = this::tryAcquire;
        }

        private int tryAcquire(int unused) {
            int index = pool.acquire(group);
            return index == MessagePool.NONE ? WaitLoop.IDLE : index;
        }

        @Override
        public MemorySegment payload(int destination) {
            Message message = open[destination];
            if (message == null) {
                failure.check();
                int index = waits.awaitOrFail(
                        acquireStep, 0, null, "no free message in the node's pool", " (every message is in use)");
                message = opened(destination, index);
            }
            return message.buffer.payload();
        }

        @Override
        public MemorySegment tryPayload(int destination) {
            Message message = open[destination];
            if (message == null) {
                int index = waits.attempt(acquireStep, 0);
                if (index == WaitLoop.IDLE) {
                    waitingFor = destination;
                    return null;
                }
                message = opened(destination, index);
            }
            return message.buffer.payload();
        }

        private Message opened(int destination, int index) {
            Message message = pool.message(index);
            open[destination] = message;
            lengths[destination] = 0;
            held.hold();
            return message;
        }

        /**
         * The poller's try of the acquire. A closed or failed exchange completes the wait at once (the worker's next
         * call throws); a message taken while the exchange closes goes back to the pool under the close's lock, so
         * none is left in a closed exchange's open slots.
         */
        @Override
        protected boolean retry() {
            if (closed || failure.failed()) {
                return true;
            }
            int index = pool.acquire(group);
            if (index == MessagePool.NONE) {
                return false;
            }
            synchronized (DecoupledExchange.this) {
                if (closed) {
                    pool.recycle(index);
                } else {
                    opened(waitingFor, index);
                }
            }
            return true;
        }

        @Override
        protected void stalled(String stall) {
            fail("no free message in the node's pool for " + stall + " (every message is in use)");
        }

        @Override
        public int length(int destination) {
            return lengths[destination];
        }

        @Override
        public void length(int destination, int bytes) {
            if (open[destination] == null || bytes < 0 || bytes > open[destination].payloadCapacity()) {
                throw new IllegalArgumentException(
                        "no open message or length out of range: group=" + destination + " bytes=" + bytes);
            }
            lengths[destination] = bytes;
        }

        @Override
        public void send(int destination) {
            Message message = open[destination];
            if (message == null) {
                return;
            }
            open[destination] = null;
            held.release();
            int bytes = lengths[destination];
            lengths[destination] = 0;
            if (bytes == 0) {
                pool.recycle(message.index);
                return;
            }
            failure.check();
            MessageDescriptor.write(message.segment, id, self, 0, bytes);
            message.buffer.payloadLength(bytes);
            int[] members = groups.members(destination);
            message.retain.set(members.length);
            for (int member : members) {
                if (member == self) {
                    receiveQueues[group].offer(message.index);
                    multiplexer.handedLocally();
                } else {
                    multiplexer.enqueue(member, message.index);
                }
            }
        }

        @Override
        public void finish() {
            if (finished) {
                return;
            }
            finished = true;
            for (int destination = 0; destination < open.length; destination++) {
                send(destination);
            }
            if (sendersFinished.incrementAndGet() == threads) {
                for (int peer : receivingPeers) {
                    multiplexer.enqueue(peer, Multiplexer.endEntry(id));
                }
                if (receives) {
                    onEnd();
                    multiplexer.handedLocally();
                }
            }
        }

        /** After a failure: gives back the messages this worker never sent. */
        void recycleOpen() {
            for (int destination = 0; destination < open.length; destination++) {
                Message message = open[destination];
                if (message != null) {
                    open[destination] = null;
                    pool.recycle(message.index);
                }
            }
        }
    }

    /** A consuming worker's side: its group's queue first, then the others'. */
    private final class Receiver extends ReadinessPoller.Waiter implements ExchangeReceiver {
        private final int group;
        private final WaitLoop.Step takeStep;
        /** A message index or END_OF_STREAM, tried by poll and by the poller's retry. */
        private final PolledStep polled;

        private boolean ended;

        Receiver(int thread) {
            super(stallNanos, progress);
            this.group = thread % receiveQueues.length;
            this.takeStep = this::tryTake;
            this.polled = new PolledStep(waits, takeStep);
        }

        private int pollQueues() {
            int index = receiveQueues[group].poll(Multiplexer.EMPTY);
            for (int other = 1; index == Multiplexer.EMPTY && other < receiveQueues.length; other++) {
                index = receiveQueues[(group + other) % receiveQueues.length].poll(Multiplexer.EMPTY);
            }
            return index;
        }

        private int tryTake(int unused) {
            int index = pollQueues();
            if (index != Multiplexer.EMPTY) {
                return index;
            }
            if (endsReceived.get() >= expectedEnds) {
                index = pollQueues();
                return index != Multiplexer.EMPTY ? index : WaitLoop.END_OF_STREAM;
            }
            return WaitLoop.IDLE;
        }

        @Override
        public ShuffleBuffer take() {
            if (ended || !receives) {
                ended = true;
                return null;
            }
            int index = waits.awaitOrFail(takeStep, 0, null, "no message arrived", " (some node's end is missing)");
            if (index == WaitLoop.END_OF_STREAM) {
                ended = true;
                return null;
            }
            held.hold();
            return pool.message(index).buffer;
        }

        @Override
        public ShuffleBuffer poll() {
            if (ended || !receives) {
                ended = true;
                return null;
            }
            int index = polled.poll();
            if (index == WaitLoop.IDLE) {
                multiplexer.demand(true);
                return NOT_YET;
            }
            if (index == WaitLoop.END_OF_STREAM) {
                ended = true;
                return null;
            }
            held.hold();
            return pool.message(index).buffer;
        }

        @Override
        protected boolean retry() {
            if (closed || polled.retry()) {
                return true; // closed: the wait ends (the worker's next call finds the exchange failed or ended)
            }
            multiplexer.demand(false);
            return false;
        }

        @Override
        protected void stalled(String stall) {
            fail("no message arrived for " + stall + " (some node's end is missing)");
        }

        @Override
        public void release(ShuffleBuffer buffer) {
            held.release();
            multiplexer.release(pool.message(buffer.index()));
        }
    }
}
