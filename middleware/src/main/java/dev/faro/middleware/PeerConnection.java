package dev.faro.middleware;

import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one connection of this process to one peer process (DAIS16: one queue pair per machine pair, shared by all
 * worker pairs) and the one registered region cut into this pair's rings: {@code n·n} outgoing rings, then
 * {@code n·n} incoming rings, each {@code ringBytes}, for {@code n} workers per process.
 *
 * <p>Posting is thread-safe (the fabric's queue pairs are). Notification SENDs are bounded by
 * {@link #NOTIFY_LIMIT} outstanding, so the send queue and the peer's posted receives never overflow; a thread that
 * finds the limit reached leaves its notification for later (positions are absolute, so a later one covers it).
 */
final class PeerConnection {

    /** Notification SENDs that may be outstanding per connection. */
    static final int NOTIFY_LIMIT = 64;
    /** Receives posted for notifications per connection (twice the limit: reposting lags a little). */
    static final int RECEIVE_SLOTS = 2 * NOTIFY_LIMIT;

    private static final long KIND_WRITE = 1L << 62;
    private static final long KIND_SEND = 2L << 62;
    private static final long KIND_RECEIVE = 3L << 62;
    private static final long KIND_MASK = 3L << 62;

    final int process;
    final RcQueuePair queuePair;
    final MemoryRegion rings;
    final MemoryRegion receives;
    private RemoteKey remoteKey;
    final OutgoingRing[] outgoing;
    private final AtomicInteger outstandingNotifications = new AtomicInteger();

    /** Network thread: the message being batched, its prefixes of 1..8 entries, and its entry count. */
    final MemorySegment message;

    final MemorySegment[] messagePrefixes;
    int entries;
    /** Network thread: outgoing rings whose completed position is still to be announced with WRITTEN. */
    final int[] announce;

    int announceCount;
    /** Network thread: the reusable request for notification SENDs. */
    final WorkRequest request = new WorkRequest();

    /** Approximate counters. */
    long notificationMessagesSent;

    long notificationEntriesSent;

    PeerConnection(
            int process,
            RcQueuePair queuePair,
            MemoryRegion rings,
            MemoryRegion receives,
            int ringPairs,
            MemorySegment message) {
        this.process = process;
        this.queuePair = queuePair;
        this.rings = rings;
        this.receives = receives;
        this.outgoing = new OutgoingRing[ringPairs];
        this.message = message;
        this.messagePrefixes = new MemorySegment[NotificationDescriptor.MAX_ENTRIES + 1];
        for (int count = 1; count <= NotificationDescriptor.MAX_ENTRIES; count++) {
            messagePrefixes[count] = message.asSlice(0, (long) count * NotificationDescriptor.ENTRY_LENGTH);
        }
        this.announce = new int[ringPairs];
    }

    void remoteKey(RemoteKey key) {
        this.remoteKey = key;
    }

    RemoteKey remoteKey() {
        return remoteKey;
    }

    long writeRequestId(int ringIndex) {
        return KIND_WRITE | (long) process << 32 | ringIndex;
    }

    long receiveRequestId(int slot) {
        return KIND_RECEIVE | (long) process << 32 | slot;
    }

    static boolean isWrite(long requestId) {
        return (requestId & KIND_MASK) == KIND_WRITE;
    }

    static boolean isNotification(long requestId) {
        return (requestId & KIND_MASK) == KIND_SEND;
    }

    static boolean isReceive(long requestId) {
        return (requestId & KIND_MASK) == KIND_RECEIVE;
    }

    static int processOf(long requestId) {
        return (int) ((requestId & ~KIND_MASK) >>> 32);
    }

    static int indexOf(long requestId) {
        return (int) requestId;
    }

    void postWrite(WorkRequest request) {
        queuePair.postSend(request);
    }

    void postReceive(int slot) {
        queuePair.postReceive(
                receiveRequestId(slot),
                receives,
                (long) slot * NotificationDescriptor.MESSAGE_LENGTH,
                NotificationDescriptor.MESSAGE_LENGTH);
    }

    /**
     * Sends {@code payload} (whole entries, preallocated slices so nothing is allocated here) as one inline SEND,
     * unless {@link #NOTIFY_LIMIT} are outstanding. Any thread, with its own request and payload.
     *
     * @return false when the limit is reached (nothing sent)
     */
    boolean trySendNotification(WorkRequest sendRequest, MemorySegment payload) {
        if (outstandingNotifications.incrementAndGet() > NOTIFY_LIMIT) {
            outstandingNotifications.decrementAndGet();
            return false;
        }
        sendRequest
                .clear()
                .requestId(KIND_SEND | (long) process << 32)
                .opcode(Opcode.SEND)
                .inline(payload);
        queuePair.postSend(sendRequest);
        return true;
    }

    /** Network thread: a notification SEND completed. */
    void onNotificationCompleted() {
        outstandingNotifications.decrementAndGet();
    }
}
