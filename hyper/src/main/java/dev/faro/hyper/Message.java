package dev.faro.hyper;

import dev.faro.fabric.MemoryRegion;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One message of the node's {@link MessagePool}: a fixed slice of the pool's registered region (wire header and
 * payload) and the paper's local header, which never leaves the node: the registration (region and offset), the
 * worker group it belongs to (the paper's NUMA node), and the retain count.
 *
 * <p>A send message is retained once per consumer of its bytes: once per remote destination (released by the
 * network thread when the SEND completed) and once for this node's own receivers when the node is a destination
 * (released by the consuming worker); a broadcast is therefore one message with a retain count, never a copy. At zero
 * it returns to its group's free list. A receive message belongs to one peer's queue pair: it is posted there,
 * filled by the peer, handed to a worker, and released back to the network thread, which posts it again.
 *
 * <p>Created once per message at pool construction. Thread-safe through {@link #retain}; the buffer view belongs to
 * whichever thread holds the message.
 */
final class Message {

    /** Sent from this node: taken from a free list by a sending worker. */
    static final int KIND_SEND = 0;
    /** Posted as a receive on one peer's queue pair. */
    static final int KIND_RECEIVE = 1;

    final int index;
    final int kind;
    /** The worker group (modelled NUMA region) whose free list the message returns to. */
    final int group;
    /** Receive messages: the peer node whose queue pair the message is posted on; -1 for send messages. */
    final int peer;

    final MemoryRegion region;
    final long regionOffset;
    /** Header and payload. */
    final MemorySegment segment;
    /** What a receiving worker reads and a sending worker fills: the payload after {@link MessageDescriptor#LENGTH}. */
    final ShuffleBuffer buffer;
    /** Holders of the message; 0 while it is free (send) or posted (receive). */
    final AtomicInteger retain = new AtomicInteger();

    Message(int index, int kind, int group, int peer, MemoryRegion region, long regionOffset, MemorySegment segment) {
        this.index = index;
        this.kind = kind;
        this.group = group;
        this.peer = peer;
        this.region = region;
        this.regionOffset = regionOffset;
        this.segment = segment;
        this.buffer = new ShuffleBuffer(index, region, regionOffset, segment);
    }

    int payloadCapacity() {
        return buffer.payloadCapacity();
    }
}
