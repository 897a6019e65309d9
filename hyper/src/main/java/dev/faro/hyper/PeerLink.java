package dev.faro.hyper;

import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a {@link Multiplexer} keeps for one peer node: the queue pair to the peer's multiplexer, the send queue workers
 * hand messages for the peer to, what is posted there, the flow-control counts ({@link Multiplexer}'s "Flow control")
 * and the connection's state (connected, to which incarnation of the peer, failed, to be replaced).
 *
 * <p>Threads: the connection state is written by connecting and opening threads and read by the network thread
 * (volatile, or guarded by the multiplexer); the counts and the queue pair's posting belong to the network thread; the
 * send queue is many-producer (workers), one-consumer (the network thread). Data path: allocation-free.
 */
final class PeerLink {

    /** Every message and an end marker per open exchange: a send queue never refuses one. */
    final IndexQueue sendQueue;
    /** Data messages and end markers posted and not completed, in posting order. Network thread only. */
    final IndexQueue inFlight;

    /** Null for this node's own entry; replaced by the network thread when the peer's worker is replaced. */
    RcQueuePair queuePair;

    /** Written by connecting threads (release), read by the network thread (acquire). */
    private volatile boolean connected;

    private volatile RemoteKey creditKey;
    /** The incarnation of the peer multiplexer the queue pair is connected to; guarded by the multiplexer. */
    int incarnation;
    /** The network thread must replace the queue pair (a restarted peer); set by openers, cleared by it. */
    volatile boolean replaceRequested;
    /** The first failure of the connection; set once per connection. */
    private final AtomicReference<String> failure = new AtomicReference<>();

    // Network thread only.
    /** Data messages and end markers sent to the peer on this connection. */
    long sent;
    /** Receives for the peer posted again on this connection (absolute: the credit this node gives the peer). */
    long reposted;
    /** The last {@link #reposted} written into the peer's credit word. */
    long creditWritten;

    boolean creditInFlight;
    /** The last phase number written into the peer's phase word. */
    long phaseWritten;

    boolean phaseInFlight;
    /** Sends of any kind (data, end markers, credit and phase writes) posted and not completed. */
    int outstanding;
    /** Data messages and end markers posted and not completed. */
    int outstandingData;
    /** The connection's epoch: request ids carry it, so completions of a replaced queue pair are ignored. */
    int epoch;

    PeerLink(int sendQueueCapacity, int inFlightCapacity) {
        this.sendQueue = new IndexQueue(sendQueueCapacity);
        this.inFlight = new IndexQueue(inFlightCapacity);
    }

    boolean isConnected() {
        return connected;
    }

    /** Connected to a peer's multiplexer whose credit words are at {@code key}. */
    void connected(RemoteKey key, int peerIncarnation) {
        creditKey = key;
        incarnation = peerIncarnation;
        connected = true;
    }

    RemoteKey creditKey() {
        return creditKey;
    }

    /** The connection's first failure, or null. */
    String failure() {
        return failure.get();
    }

    boolean failed() {
        return failure.get() != null;
    }

    /** Records {@code message} as the connection's failure unless it failed already; true if it did now. */
    boolean fail(String message) {
        return failure.compareAndSet(null, message);
    }

    /**
     * Whether a data message may be sent: its receive is posted at the peer ({@code receivesPerPeer} initial receives
     * plus the peer's {@code creditWord}, the receives it posted again, exceed what was sent).
     */
    boolean hasCredit(int receivesPerPeer, long creditWord) {
        return sent - (receivesPerPeer + creditWord) < 0;
    }

    /**
     * A fresh connection state after the queue pair was replaced (network thread): the counts start again and the
     * epoch moves on; the new queue pair is unconnected and its failure forgotten.
     */
    void reset() {
        epoch++;
        sent = 0;
        reposted = 0;
        creditWritten = 0;
        creditInFlight = false;
        outstanding = 0;
        outstandingData = 0;
        phaseWritten = 0;
        phaseInFlight = false;
    }

    /** The replaced connection is unconnected and healthy again (guarded by the multiplexer). */
    void disconnected() {
        connected = false;
        incarnation = 0;
        failure.set(null);
    }
}
