package dev.faro.hyper;

import dev.faro.fabric.FaroException;
import java.lang.foreign.MemorySegment;

/**
 * The receiving half of a {@link Multiplexer}'s network thread: checks each received message's header, routes it by
 * its exchange id to that exchange's receive queues (an end marker counts one node's end), holds it while its exchange
 * is not mapped here yet ({@link EarlyMessages}), and posts a receive message again on its peer's queue pair once a
 * worker released it, counting it as credit for the peer ({@link PeerLink#reposted}).
 *
 * <p>Threads: {@link #release} is called by workers; everything else runs on the network thread. Data path:
 * allocation-free.
 */
final class ReceiveRouter {

    private final MessagePool pool;
    private final ExchangeTable table;
    private final PeerLink[] links;
    private final SendPoster.PeerFailure failure;
    /** Receive messages workers released, to be posted again. */
    private final IndexQueue returned;
    /** Per message: whether it is posted as a receive now. */
    private final boolean[] posted;

    private final EarlyMessages early;
    private final EarlyOutlet earlyOutlet = new EarlyOutlet();
    /** Messages and ends routed to exchanges so far. */
    private int routedCount;

    private int receiveRotation;

    // Counters: written by the network thread only; approximate reads.
    private volatile long messagesReceived;
    private volatile long dropped;

    ReceiveRouter(MessagePool pool, ExchangeTable table, PeerLink[] links, SendPoster.PeerFailure failure) {
        this.pool = pool;
        this.table = table;
        this.links = links;
        this.failure = failure;
        this.returned = new IndexQueue(pool.size());
        this.posted = new boolean[pool.size()];
        this.early = new EarlyMessages(pool, table);
    }

    /** A worker is done with received message {@code index}: it is posted again. Data path. */
    void release(int index) {
        if (!returned.offer(index)) {
            throw new IllegalStateException("return queue full: index=" + index);
        }
    }

    /** Whether released receives wait to be posted again (the network thread then does not park). */
    boolean hasReturned() {
        return !returned.unsynchronizedIsEmpty();
    }

    /** Whether messages wait for their exchange to be mapped (the network thread then parks the shortest). */
    boolean holdsEarly() {
        return !early.isEmpty();
    }

    /** Messages and ends routed to exchanges so far (network thread). */
    int routedCount() {
        return routedCount;
    }

    /** A completed receive of message {@code message}, {@code length} bytes. */
    void onReceive(Message message, int length) {
        int peer = message.peer;
        MemorySegment segment = message.segment;
        if (length < MessageDescriptor.LENGTH
                || !MessageDescriptor.hasMagic(segment)
                || MessageDescriptor.sourceNode(segment) != peer) {
            failure.failPeer(peer, "a malformed message (" + length + " bytes)");
            return;
        }
        messagesReceived++;
        int used = MessageDescriptor.bytesUsed(segment);
        if (used < 0 || used > length - MessageDescriptor.LENGTH) {
            failure.failPeer(peer, "a message with a bad length (" + used + " of " + length + " bytes)");
            return;
        }
        int id = MessageDescriptor.exchangeId(segment);
        // while messages are held, every arrival queues behind them: an exchange's end must not pass its data
        boolean hold = !early.isEmpty() || table.isEarly(peer, id); // before incoming: see isEarly
        DecoupledExchange exchange = early.isEmpty() ? table.incoming(peer, id) : null;
        if (exchange != null) {
            route(message, exchange);
        } else if (hold) {
            early.hold(message.index);
        } else {
            dropped++;
            repost(message);
        }
    }

    /** A posted receive of message {@code index} completed, in success or error: it is not posted any more. */
    void completed(int index) {
        posted[index] = false;
    }

    /** Routes the held messages whose exchange is mapped now; returns how many left the list. */
    int routeEarly() {
        return early.routeMapped(earlyOutlet);
    }

    /** Hands a received message (its header checked) to its exchange: an end counts, data goes to the workers. */
    private void route(Message message, DecoupledExchange exchange) {
        routedCount++;
        MemorySegment segment = message.segment;
        if (MessageDescriptor.isLast(segment)) {
            repost(message);
            exchange.onEnd();
            return;
        }
        message.buffer.payloadLength(MessageDescriptor.bytesUsed(segment));
        message.retain.set(1);
        exchange.deliver(message.index, receiveRotation++);
    }

    /** The router as its held messages see it. */
    private final class EarlyOutlet implements EarlyMessages.Outlet {
        @Override
        public void route(Message message, DecoupledExchange exchange) {
            ReceiveRouter.this.route(message, exchange);
        }

        @Override
        public void drop(Message message) {
            dropped++;
            repost(message);
        }

        @Override
        public boolean peerFailed(int peer) {
            return links[peer].failed();
        }
    }

    /**
     * Posts the receive messages of {@code peer}'s new queue pair that no worker holds (a held one is posted when its
     * worker releases it); they are the peer's initial credit, not counted in {@link PeerLink#reposted}.
     */
    void postInitial(int peer, int first, int count) {
        for (int r = 0; r < count; r++) {
            Message message = pool.message(first + r);
            posted[message.index] = false;
            if (message.retain.get() == 0) {
                post(message);
            }
        }
    }

    /** Posts receive message {@code message} on its peer's queue pair. */
    private void post(Message message) {
        int peer = message.peer;
        posted[message.index] = true;
        links[peer].queuePair.postReceive(
                RequestIds.of(RequestIds.KIND_RECEIVE, links[peer].epoch, peer, message.index),
                message.region,
                message.regionOffset,
                pool.messageBytes());
    }

    /** Posts a receive message again and counts it as credit for its peer (unless the peer failed). */
    private void repost(Message message) {
        if (!links[message.peer].failed() && !posted[message.index]) {
            try {
                post(message);
                links[message.peer].reposted++;
            } catch (FaroException e) {
                failure.failPeer(message.peer, "posting a receive: " + e.getMessage());
            }
        }
    }

    /** Posts the receives workers released again; returns how many. */
    int repostReturned() {
        int work = 0;
        int index;
        while ((index = returned.poll(Multiplexer.EMPTY)) != Multiplexer.EMPTY) {
            repost(pool.message(index));
            work++;
        }
        return work;
    }

    /** Forgets the held messages of {@code peer} (its queue pair is replaced, which posts them again). */
    void forgetEarly(int peer) {
        early.forget(peer);
    }

    long messagesReceived() {
        return messagesReceived;
    }

    long dropped() {
        return dropped;
    }
}
