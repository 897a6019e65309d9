package dev.faro.hyper;

import dev.faro.fabric.Access;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.MemoryRegion;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The node's message pool (VLDB16 §3.2.2): every message the multiplexer moves, registered with the fabric once when
 * the node's multiplexer starts and reused by every exchange of every query, so no query allocates or registers
 * memory. One region holds {@code sendMessages} send messages, spread over the worker groups' free lists (the paper's
 * per-NUMA-node pools), followed by {@code receivesPerPeer} receive messages per peer node, which stay posted on that
 * peer's queue pair except while a worker reads one.
 *
 * <pre>
 *  region: | send 0 | send 1 | ... | send S-1 | receive (peer a, 0..R-1) | receive (peer b, 0..R-1) | ...
 *  message: | wire header (32 B, {@link MessageDescriptor}) | payload (messageBytes - 32) |
 * </pre>
 *
 * <p>Thread-safe: free lists are {@link IndexQueue}s; retain counts are atomics. Data path ({@link #acquire},
 * {@link #releaseSend}): allocation-free.
 */
final class MessagePool implements AutoCloseable {

    /** {@link #acquire}: no free send message in any group. */
    static final int NONE = -1;

    private final MemoryRegion region;
    private final Message[] messages;
    private final IndexQueue[] free;
    private final int sendMessages;
    private final int receivesPerPeer;
    private final int messageBytes;
    private final AtomicLong acquires = new AtomicLong();
    private final AtomicLong stolen = new AtomicLong();

    /**
     * @param peers the node count; receive messages are made for every node but {@code self}
     */
    MessagePool(
            Fabric fabric, int self, int nodes, int groups, int sendMessages, int receivesPerPeer, int messageBytes) {
        if (MessageDescriptor.LENGTH != MessageHeaderDescriptor.LENGTH) {
            throw new IllegalStateException("the wire header must fill the shuffle buffer's header");
        }
        this.sendMessages = sendMessages;
        this.receivesPerPeer = receivesPerPeer;
        this.messageBytes = messageBytes;
        int total = sendMessages + receivesPerPeer * (nodes - 1);
        this.region = fabric.register((long) total * messageBytes, EnumSet.of(Access.LOCAL_WRITE));
        this.messages = new Message[total];
        this.free = new IndexQueue[groups];
        for (int g = 0; g < groups; g++) {
            free[g] = new IndexQueue(sendMessages);
        }
        for (int i = 0; i < sendMessages; i++) {
            messages[i] = message(i, Message.KIND_SEND, i % groups, -1);
            free[i % groups].offer(i);
        }
        int index = sendMessages;
        for (int peer = 0; peer < nodes; peer++) {
            if (peer == self) {
                continue;
            }
            for (int r = 0; r < receivesPerPeer; r++, index++) {
                messages[index] = message(index, Message.KIND_RECEIVE, r % groups, peer);
            }
        }
    }

    private Message message(int index, int kind, int group, int peer) {
        long offset = (long) index * messageBytes;
        return new Message(
                index, kind, group, peer, region, offset, region.segment().asSlice(offset, messageBytes));
    }

    MemoryRegion region() {
        return region;
    }

    Message message(int index) {
        return messages[index];
    }

    int size() {
        return messages.length;
    }

    int messageBytes() {
        return messageBytes;
    }

    int sendMessages() {
        return sendMessages;
    }

    /** The receive messages of {@code peer}'s queue pair: indexes {@code first .. first + receivesPerPeer - 1}. */
    int firstReceive(int peer, int self) {
        return sendMessages + receivesPerPeer * (peer < self ? peer : peer - 1);
    }

    int receivesPerPeer() {
        return receivesPerPeer;
    }

    /**
     * A free send message, from {@code group}'s free list first and another group's when it is empty (counted as
     * stolen); {@link #NONE} when there is none. The caller owns it with retain count 0 until it sets one.
     */
    int acquire(int group) {
        int index = free[group].poll(NONE);
        if (index == NONE) {
            for (int other = 1; other < free.length && index == NONE; other++) {
                index = free[(group + other) % free.length].poll(NONE);
            }
            if (index == NONE) {
                return NONE;
            }
            stolen.getAndIncrement();
        }
        acquires.getAndIncrement();
        return index;
    }

    /** Drops one hold of send message {@code index}; the last one returns it to its group's free list. */
    void releaseSend(int index) {
        Message message = messages[index];
        int left = message.retain.decrementAndGet();
        if (left == 0) {
            free[message.group].offer(index);
        } else if (left < 0) {
            throw new IllegalStateException("message released more often than retained: index=" + index);
        }
    }

    /** Returns a send message that was acquired but never retained (never sent). */
    void recycle(int index) {
        free[messages[index].group].offer(index);
    }

    /** Send messages taken from the free lists so far. */
    long acquires() {
        return acquires.get();
    }

    /** Of {@link #acquires()}, those taken from another group's free list. */
    long stolen() {
        return stolen.get();
    }

    /** Send messages not on a free list now (approximate while workers run; exact when the node is idle). */
    int sendMessagesInUse() {
        int onLists = 0;
        for (IndexQueue list : free) {
            onLists += list.unsynchronizedSize();
        }
        return sendMessages - onLists;
    }

    /** The sum of every message's retain count (exact when the node is idle): 0 after every query. */
    long retained() {
        long sum = 0;
        for (Message message : messages) {
            sum += message.retain.get();
        }
        return sum;
    }

    @Override
    public void close() {
        region.close();
    }
}
