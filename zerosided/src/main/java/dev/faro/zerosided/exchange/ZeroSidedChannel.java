package dev.faro.zerosided.exchange;

import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.WaitLoop;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import dev.faro.shuffle.transport.HeldBuffers;
import dev.faro.shuffle.transport.PolledStep;
import dev.faro.shuffle.transport.ReadinessPoller;
import dev.faro.zerosided.unit.SharedConsumerRing;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One node's sides of one exchange over the zero-sided switch. A producing thread fills a slot of its producer buffer
 * for the group in place (the slot is the engine's send buffer: {@link ExchangeSender#payload} is the slot after a
 * {@value MessageHeaderDescriptor#LENGTH}-byte header holding the fill level) and {@link ExchangeSender#send} only
 * moves the buffer's head word; a consuming thread takes a slot of the node's one consumer buffer and reads it in
 * place; releasing moves the tail word. The switch does every data movement between them. The node's consumer buffer
 * is shared by its receiving threads through a {@link SharedConsumerRing} (taken in ring order, released in any order,
 * the tail moving over the released prefix) — the answer to "each node's receiving threads would need one consumer
 * buffer released out of order": a thread holds its slot while it decodes it and no row is copied out.
 *
 * <p>Waits (a full producer buffer, an empty consumer buffer) go through the shuffle endpoints' {@link WaitLoop}: the
 * stall timeout without progress anywhere in the query, the first failure recorded for every thread, and each try
 * checks this node's NIC agent and (at node 0) the switch, so a PU or switch that stopped fails the exchange here at
 * once rather than at the stall timeout.
 *
 * <p>Yielding: a send and a finish never wait (they move head words), so claiming a producer slot and taking a
 * consumer slot have non-blocking forms ({@link ExchangeSender#tryPayload}, {@link ExchangeReceiver#poll}), one try
 * of the same step, retried by the {@link ReadinessPoller} for a yielded driver; a wait that stalled there is made once
 * more as the blocking call, whose wait loop fails it with its own words.
 *
 * <p>Threads: senders and receivers are thread-confined; the rest is shared and thread-safe. Data path
 * (payload/length/send/take/release): allocation-free.
 */
final class ZeroSidedChannel implements ExchangeChannel {

    /** Where a slot's fill level goes: the first int of the shuffle buffer header. */
    private static final long LENGTH_OFFSET = 0;

    private final ExchangeResources resources;
    private final PeerExchange peers;
    private final String exchangeName;
    private final int threads;
    private final int groupCount;
    private final boolean receives;
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final Sender[] senders;
    private final Receiver[] receivers;
    private final HeldBuffers held = new HeldBuffers();
    private final AtomicInteger finishedSenders = new AtomicInteger();
    /** Per consumer slot: a buffer over it, and the absolute position of the item it holds while taken. */
    private final ShuffleBuffer[] slotBuffers;

    private final long[] slotPositions;
    private final long stallNanos;
    private final ProgressSignal progress;
    private volatile boolean closed;

    ZeroSidedChannel(
            ExchangeResources resources,
            PeerExchange peers,
            String exchangeName,
            int threads,
            int groupCount,
            EndpointFailure failure,
            WaitLoop waits,
            Duration stallTimeout,
            ProgressSignal progress) {
        this.resources = resources;
        this.peers = peers;
        this.exchangeName = exchangeName;
        this.threads = threads;
        this.groupCount = groupCount;
        this.receives = resources.consumerRing() != null;
        this.failure = failure;
        this.waits = waits;
        this.stallNanos = stallTimeout.toNanos();
        this.progress = progress;
        this.senders = new Sender[threads];
        this.receivers = new Receiver[threads];
        SharedConsumerRing ring = resources.consumerRing();
        int slots = ring == null ? 0 : ring.capacity();
        this.slotBuffers = new ShuffleBuffer[slots];
        this.slotPositions = new long[slots];
        for (int slot = 0; slot < slots; slot++) {
            slotBuffers[slot] =
                    new ShuffleBuffer(slot, ring.segment().asSlice(ring.slotOffset(slot), ring.itemBytes()));
        }
    }

    @Override
    public boolean receives() {
        return receives;
    }

    @Override
    public synchronized ExchangeSender sender(int thread) {
        if (senders[thread] == null) {
            senders[thread] = new Sender(resources.producerViews()[thread]);
        }
        return senders[thread];
    }

    @Override
    public synchronized ExchangeReceiver receiver(int thread) {
        if (receivers[thread] == null) {
            receivers[thread] = new Receiver();
        }
        return receivers[thread];
    }

    @Override
    public int buffersHeldHighWater() {
        return held.highWater();
    }

    /**
     * Frees the exchange's buffers, NIC and (at node 0) switch. When this node's part ended normally (every sender
     * finished, the consumer buffer ended and fully released), it first waits in a barrier of every node: the switch at
     * node 0 and every node's NIC must stay up until every node's streams have ended, since a producer buffer drained
     * here may still be read for its end-of-stream word, and a consumer elsewhere may still be written. A node whose
     * part did not end (the query failed) closes at once; where no coordinator ends the other nodes' waits when a node
     * fails ({@link PeerExchange#endsPeersOnFailure()} false, e.g. nodes in one JVM), it still takes its place in the
     * barrier, from a thread of its own, so that a node whose part had ended does not wait out the gather's time limit
     * for it.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException first = null;
        String barrier = exchangeName + "/zerosided/close";
        if (!failure.failed() && locallyComplete()) {
            try {
                peers.allGather(barrier, new byte[0]);
            } catch (RuntimeException e) {
                first = e;
            }
        } else if (!peers.endsPeersOnFailure()) {
            Thread.ofVirtual().name(barrier).start(() -> joinBarrierOfFailedNode(barrier));
        }
        try {
            resources.close();
        } catch (RuntimeException e) {
            if (first == null) {
                first = e;
            } else {
                first.addSuppressed(e);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** A failed node's place in the close barrier: nothing waits for the result, and its time-out is expected. */
    private void joinBarrierOfFailedNode(String barrier) {
        try {
            peers.allGather(barrier, new byte[0]);
        } catch (RuntimeException e) {
            // the others failed too and never come: nobody waits on this barrier any more
        }
    }

    private boolean locallyComplete() {
        if (finishedSenders.get() != threads) {
            return false;
        }
        SharedConsumerRing ring = resources.consumerRing();
        return ring == null || ring.tryTake() == SharedConsumerRing.END_OF_STREAM && ring.fullyReleased();
    }

    /** Fails the wait when an agent of this exchange stopped or the exchange was closed; {@code WaitLoop.IDLE} else. */
    private int checkAgents() {
        String stopped = resources.unsynchronizedAgentFailure();
        if (stopped != null) {
            throw waits.fail(stopped);
        }
        if (closed) {
            throw waits.fail("the exchange was closed");
        }
        return WaitLoop.IDLE;
    }

    private final class Sender extends ReadinessPoller.Waiter implements ExchangeSender {
        private final ZeroSidedBuffer[] rings;
        /** [group][slot]: the payload of each producer slot, made once. */
        private final MemorySegment[][] payloads;

        private final boolean[] open = new boolean[groupCount];
        private final int[] lengths = new int[groupCount];
        private final WaitLoop.Step claim = this::tryClaim;
        private boolean finished;
        /** The group whose slot a non-blocking claim could not take. */
        private int waitingGroup;

        Sender(ZeroSidedBuffer[] rings) {
            super(stallNanos, progress);
            this.rings = rings;
            this.payloads = new MemorySegment[groupCount][];
            for (int group = 0; group < groupCount; group++) {
                ZeroSidedBuffer ring = rings[group];
                payloads[group] = new MemorySegment[ring.capacity()];
                for (int slot = 0; slot < ring.capacity(); slot++) {
                    payloads[group][slot] = ring.segment()
                            .asSlice(
                                    ExchangeResources.slotOffset(ring, slot) + MessageHeaderDescriptor.LENGTH,
                                    ring.itemBytes() - MessageHeaderDescriptor.LENGTH);
                }
            }
        }

        private int tryClaim(int group) {
            if (rings[group].claimSlot() != ZeroSidedBuffer.NONE) {
                return WaitLoop.DONE;
            }
            return checkAgents();
        }

        @Override
        public MemorySegment payload(int group) {
            ZeroSidedBuffer ring = rings[group];
            if (!open[group]) {
                failure.check();
                waits.awaitOrFail(
                        claim, group, null, "no free slot in a producer buffer", " (the switch did not drain it)");
                open[group] = true;
                lengths[group] = 0;
                held.hold();
            }
            return payloads[group][(int) (ring.position() % ring.capacity())];
        }

        @Override
        public MemorySegment tryPayload(int group) {
            if (takeStall()) {
                return payload(group);
            }
            ZeroSidedBuffer ring = rings[group];
            if (!open[group]) {
                if (waits.attempt(claim, group) == WaitLoop.IDLE) {
                    waitingGroup = group;
                    return null;
                }
                opened(group);
            }
            return payloads[group][(int) (ring.position() % ring.capacity())];
        }

        private void opened(int group) {
            open[group] = true;
            lengths[group] = 0;
            held.hold();
        }

        @Override
        protected boolean retry() {
            if (waits.attempt(claim, waitingGroup) == WaitLoop.IDLE) {
                return false;
            }
            opened(waitingGroup);
            return true;
        }

        @Override
        public int length(int group) {
            return open[group] ? lengths[group] : 0;
        }

        @Override
        public void length(int group, int bytes) {
            lengths[group] = bytes;
        }

        @Override
        public void send(int group) {
            if (!open[group]) {
                return;
            }
            open[group] = false;
            held.release();
            ZeroSidedBuffer ring = rings[group];
            long slot = ring.claimSlot();
            ring.segment().set(ValueLayout.JAVA_INT, slot + LENGTH_OFFSET, lengths[group]);
            ring.push();
        }

        @Override
        public void finish() {
            if (finished) {
                return;
            }
            finished = true;
            for (int group = 0; group < groupCount; group++) {
                if (open[group] && lengths[group] > 0) {
                    send(group);
                } else if (open[group]) {
                    open[group] = false;
                    held.release();
                }
                rings[group].finish();
            }
            finishedSenders.incrementAndGet();
        }
    }

    private final class Receiver extends ReadinessPoller.Waiter implements ExchangeReceiver {
        private final SharedConsumerRing ring = resources.consumerRing();
        private final WaitLoop.Step next = this::tryTake;
        /** A slot or END_OF_STREAM, tried by poll and by the poller's retry. */
        private final PolledStep polled = new PolledStep(waits, next);

        private boolean ended;

        Receiver() {
            super(stallNanos, progress);
        }

        private int tryTake(int unused) {
            long position = ring.tryTake();
            if (position >= 0) {
                int slot = ring.slot(position);
                slotPositions[slot] = position;
                return slot;
            }
            if (position == SharedConsumerRing.END_OF_STREAM) {
                return WaitLoop.END_OF_STREAM;
            }
            if (position == SharedConsumerRing.CONTENDED) {
                return WaitLoop.PROGRESS;
            }
            return checkAgents();
        }

        @Override
        public ShuffleBuffer take() {
            if (ended || !receives) {
                ended = true;
                return null;
            }
            failure.check();
            return handOut(waits.awaitOrFail(next, 0, null, "no data arrived", ""));
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
            int slot = polled.poll();
            return slot == WaitLoop.IDLE ? NOT_YET : handOut(slot);
        }

        @Override
        protected boolean retry() {
            return polled.retry();
        }

        private ShuffleBuffer handOut(int slot) {
            if (slot == WaitLoop.END_OF_STREAM) {
                ended = true;
                return null;
            }
            ShuffleBuffer buffer = slotBuffers[slot];
            buffer.payloadLength(buffer.segment().get(ValueLayout.JAVA_INT, LENGTH_OFFSET));
            held.hold();
            return buffer;
        }

        @Override
        public void release(ShuffleBuffer buffer) {
            held.release();
            ring.release(slotPositions[buffer.index()]);
        }
    }
}
