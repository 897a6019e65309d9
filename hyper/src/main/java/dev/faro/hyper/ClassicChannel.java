package dev.faro.hyper;

import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One node's sides of one classic exchange ({@link ClassicTransport}): one inner channel per unit of a node. A
 * producing thread's sender routes group g to its unit's channel (a repartition) or copies it into every channel (a
 * broadcast); consuming thread j reads channel j's receivers, of every producing thread, alone. Senders and receivers
 * are thread-confined and allocate nothing but one stage per wait (a receiver waiting on several inner receivers
 * combines their stages).
 */
final class ClassicChannel implements ExchangeChannel {

    /** Where a group goes: to every unit's channel (a broadcast), or to one. */
    private static final int EVERY_UNIT = -1;

    private final ExchangeChannel[] units;
    /** Per group: its unit's channel, or {@link #EVERY_UNIT}. */
    private final int[] unitOf;
    /** Per group: the group in the unit's channel. */
    private final int[] channelGroupOf;
    /** Whether some group goes to every unit: then units other than 0 release what they receive unread. */
    private final boolean copies;

    private final Sender[] senders;
    private final Receiver[] receivers;

    ClassicChannel(ExchangeChannel[] units, TransmissionGroups groups, boolean perUnit) {
        this.units = units.clone();
        int threads = units.length;
        int nodes = groups.nodes();
        this.unitOf = new int[groups.groupCount()];
        this.channelGroupOf = new int[groups.groupCount()];
        boolean anyCopies = false;
        for (int group = 0; group < unitOf.length; group++) {
            if (perUnit) {
                unitOf[group] = group % threads;
                channelGroupOf[group] = group / threads;
            } else {
                boolean everyNode = groups.members(group).length == nodes;
                unitOf[group] = everyNode && threads > 1 ? EVERY_UNIT : 0;
                channelGroupOf[group] = group;
                anyCopies |= unitOf[group] == EVERY_UNIT;
            }
        }
        this.copies = anyCopies;
        this.senders = new Sender[threads];
        this.receivers = new Receiver[threads];
        for (int thread = 0; thread < threads; thread++) {
            senders[thread] = new Sender(thread);
            receivers[thread] = new Receiver(thread);
        }
    }

    @Override
    public boolean receives() {
        return units[0].receives();
    }

    @Override
    public ExchangeSender sender(int thread) {
        return senders[thread];
    }

    @Override
    public ExchangeReceiver receiver(int thread) {
        return receivers[thread];
    }

    @Override
    public int buffersHeldHighWater() {
        int held = 0;
        for (ExchangeChannel unit : units) {
            held += unit.buffersHeldHighWater();
        }
        return held;
    }

    @Override
    public void close() {
        endEach(units, false, null);
    }

    /** Abandons every unit's channel (the query failed: their closes need not wait for the peers' streams). */
    @Override
    public void abandon() {
        endEach(units, true, null);
    }

    /**
     * Closes or abandons every non-null channel of {@code units}; the first failure is thrown, later ones attached to
     * it, or all are attached to {@code cause} when one is given (an open that failed).
     */
    static void endEach(ExchangeChannel[] units, boolean abandon, RuntimeException cause) {
        RuntimeException first = cause;
        for (ExchangeChannel unit : units) {
            if (unit == null) {
                continue;
            }
            try {
                if (abandon) {
                    unit.abandon();
                } else {
                    unit.close();
                }
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null && first != cause) {
            throw first;
        }
    }

    /** Producing thread {@code thread}'s buffers: its sender of every unit's channel. */
    private final class Sender implements ExchangeSender {
        private final ExchangeSender[] inner;
        /** Per group sent to every unit: the next unit to receive a copy of its open buffer (unit 0 is sent last). */
        private final int[] nextCopy;
        /** Per group: whether that unit's copy is filled and waits to be sent (a try did not send it). */
        private final boolean[] copyFilled;
        /** The units whose streams {@link #tryFinish} ended so far. */
        private int finished;
        /** The inner sender whose try did not proceed, for {@link #whenReady}. */
        private ExchangeSender blocked;

        Sender(int thread) {
            inner = new ExchangeSender[units.length];
            for (int unit = 0; unit < units.length; unit++) {
                inner[unit] = units[unit].sender(thread);
            }
            nextCopy = new int[unitOf.length];
            Arrays.fill(nextCopy, 1);
            copyFilled = new boolean[unitOf.length];
        }

        /** The sender holding group {@code group}'s open buffer (unit 0's for a broadcast). */
        private ExchangeSender holder(int group) {
            int unit = unitOf[group];
            return inner[unit == EVERY_UNIT ? 0 : unit];
        }

        @Override
        public MemorySegment payload(int group) {
            return holder(group).payload(channelGroupOf[group]);
        }

        @Override
        public MemorySegment tryPayload(int group) {
            ExchangeSender holder = holder(group);
            MemorySegment payload = holder.tryPayload(channelGroupOf[group]);
            if (payload == null) {
                blocked = holder;
            }
            return payload;
        }

        @Override
        public int length(int group) {
            return holder(group).length(channelGroupOf[group]);
        }

        @Override
        public void length(int group, int bytes) {
            holder(group).length(channelGroupOf[group], bytes);
        }

        @Override
        public void send(int group) {
            int channelGroup = channelGroupOf[group];
            if (unitOf[group] == EVERY_UNIT) {
                int bytes = inner[0].length(channelGroup);
                if (bytes > 0) {
                    MemorySegment source = inner[0].payload(channelGroup);
                    for (int unit = 1; unit < inner.length; unit++) {
                        MemorySegment.copy(source, 0, inner[unit].payload(channelGroup), 0, bytes);
                        inner[unit].length(channelGroup, bytes);
                        inner[unit].send(channelGroup);
                    }
                }
                nextCopy[group] = 1;
            }
            holder(group).send(channelGroup);
        }

        @Override
        public boolean trySend(int group) {
            int channelGroup = channelGroupOf[group];
            if (unitOf[group] == EVERY_UNIT) {
                int bytes = inner[0].length(channelGroup);
                if (bytes > 0) {
                    MemorySegment source = inner[0].tryPayload(channelGroup); // open: never null
                    // a try that did not proceed is completed by the poller (an acquire or a send), so each step
                    // is made once: the copy's state says which comes next
                    for (; nextCopy[group] < inner.length; nextCopy[group]++) {
                        ExchangeSender copy = inner[nextCopy[group]];
                        if (!copyFilled[group]) {
                            MemorySegment target = copy.tryPayload(channelGroup);
                            if (target == null) {
                                blocked = copy;
                                return false;
                            }
                            MemorySegment.copy(source, 0, target, 0, bytes);
                            copy.length(channelGroup, bytes);
                            copyFilled[group] = true;
                        }
                        if (!copy.trySend(channelGroup)) {
                            blocked = copy;
                            return false;
                        }
                        copyFilled[group] = false;
                    }
                }
            }
            ExchangeSender holder = holder(group);
            if (!holder.trySend(channelGroup)) {
                blocked = holder;
                return false;
            }
            nextCopy[group] = 1;
            return true;
        }

        @Override
        public boolean tryFinish() {
            if (finished == 0) {
                for (int group = 0; group < unitOf.length; group++) {
                    if (unitOf[group] == EVERY_UNIT
                            && (inner[0].length(channelGroupOf[group]) > 0 || nextCopy[group] != 1)
                            && !trySend(group)) {
                        return false;
                    }
                }
            }
            for (; finished < inner.length; finished++) {
                if (!inner[finished].tryFinish()) {
                    blocked = inner[finished];
                    return false;
                }
            }
            return true;
        }

        @Override
        public void finish() {
            if (finished == 0) {
                for (int group = 0; group < unitOf.length; group++) {
                    if (unitOf[group] == EVERY_UNIT && inner[0].length(channelGroupOf[group]) > 0) {
                        send(group);
                    }
                }
            }
            for (; finished < inner.length; finished++) {
                inner[finished].finish();
            }
        }

        @Override
        public CompletionStage<Void> whenReady() {
            ExchangeSender waiting = blocked;
            blocked = null;
            return waiting == null ? READY : waiting.whenReady();
        }
    }

    /**
     * Consuming thread {@code unit}'s side: the receivers of its unit's channel, one per producing thread of every
     * node, read in turn. A unit other than 0 of a channel that copies broadcasts releases what arrives unread.
     */
    private final class Receiver implements ExchangeReceiver {
        private final ExchangeReceiver[] inner;
        private final boolean discards;
        private final boolean[] ended;
        /** Per inner receiver: the stage of its wait, while the poller may still be retrying it. */
        private final CompletableFuture<?>[] waits;

        private int live;
        private int next;
        /** Buffers handed out and not yet released, with the inner receivers they came from. */
        private ShuffleBuffer[] held = new ShuffleBuffer[4];

        private ExchangeReceiver[] heldFrom = new ExchangeReceiver[4];
        private int heldCount;

        Receiver(int unit) {
            int threads = units.length;
            inner = new ExchangeReceiver[threads];
            for (int thread = 0; thread < threads; thread++) {
                inner[thread] = units[unit].receiver(thread);
            }
            discards = copies && unit > 0;
            ended = new boolean[threads];
            waits = new CompletableFuture<?>[threads];
            live = threads;
        }

        @Override
        public ShuffleBuffer poll() {
            for (int i = 0; i < inner.length && live > 0; i++) {
                int k = (next + i) % inner.length;
                if (ended[k]) {
                    continue;
                }
                if (waits[k] != null) {
                    if (!waits[k].isDone()) {
                        continue;
                    }
                    waits[k] = null;
                }
                ShuffleBuffer buffer = inner[k].poll();
                while (buffer != null && buffer != NOT_YET && discards) {
                    inner[k].release(buffer);
                    buffer = inner[k].poll();
                }
                if (buffer == null) {
                    ended[k] = true;
                    live--;
                } else if (buffer != NOT_YET) {
                    next = (k + 1) % inner.length;
                    hold(buffer, inner[k]);
                    return buffer;
                }
            }
            return live == 0 ? null : NOT_YET;
        }

        @Override
        public ShuffleBuffer take() {
            while (true) {
                ShuffleBuffer buffer = poll();
                if (buffer != NOT_YET) {
                    return buffer;
                }
                whenReady().toCompletableFuture().join();
            }
        }

        /** After {@link #poll} returned {@link #NOT_YET}: every live inner receiver that has no wait now waits. */
        @Override
        public CompletionStage<Void> whenReady() {
            int waiting = 0;
            for (int k = 0; k < inner.length; k++) {
                if (ended[k]) {
                    continue;
                }
                if (waits[k] == null) {
                    waits[k] = inner[k].whenReady().toCompletableFuture();
                }
                if (waits[k].isDone()) {
                    return ExchangeSender.READY;
                }
                waiting++;
            }
            if (waiting == 0) {
                return ExchangeSender.READY;
            }
            CompletableFuture<?>[] stages = new CompletableFuture<?>[waiting];
            int s = 0;
            for (int k = 0; k < inner.length; k++) {
                if (!ended[k]) {
                    stages[s++] = waits[k];
                }
            }
            return CompletableFuture.anyOf(stages).thenApply(ignored -> null);
        }

        private void hold(ShuffleBuffer buffer, ExchangeReceiver from) {
            if (heldCount == held.length) {
                held = Arrays.copyOf(held, heldCount * 2);
                heldFrom = Arrays.copyOf(heldFrom, heldCount * 2);
            }
            held[heldCount] = buffer;
            heldFrom[heldCount++] = from;
        }

        @Override
        public void release(ShuffleBuffer buffer) {
            for (int i = 0; i < heldCount; i++) {
                if (held[i] == buffer) {
                    ExchangeReceiver from = heldFrom[i];
                    heldCount--;
                    held[i] = held[heldCount];
                    heldFrom[i] = heldFrom[heldCount];
                    held[heldCount] = null;
                    heldFrom[heldCount] = null;
                    from.release(buffer);
                    return;
                }
            }
            throw new IllegalArgumentException("not a buffer this receiver handed out: " + buffer);
        }
    }
}
