package dev.faro.hyper;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The posting half of a {@link Multiplexer}'s network thread: takes what workers queued for each peer ({@link
 * PeerLink#sendQueue}) and posts it as two-sided SENDs of the used bytes (end markers inline) while the peer has
 * credit and the queue pair has room, writes this node's credit and phase words into the peers' memory (8-byte
 * inline RDMA WRITEs, at most one of each in flight per peer), and, with {@link NetworkSchedule#ROUND_ROBIN} on more
 * than two nodes, leaves the choice of peer to the {@link PhaseSchedule}. Unscheduled, it serves the peers in turn,
 * starting one further each round.
 *
 * <p>Network thread only (the send queues' producers are workers). Data path: allocation-free.
 */
final class SendPoster implements PhaseSchedule.Sends {

    /** What the multiplexer does when a post throws: the connection to {@code peer} failed. */
    interface PeerFailure {
        void failPeer(int peer, String reason);
    }

    private final int self;
    private final int nodes;
    private final HyperConfig config;
    private final MessagePool pool;
    private final PeerLink[] links;
    private final MemorySegment creditWords;
    private final int sendDepth;
    private final PeerFailure failure;
    private final PhaseSchedule schedule;
    private final WorkRequest request = new WorkRequest();
    private final MemorySegment endHeader;
    private final MemorySegment wordValue;
    private int startPeer;

    // Counters: written by the network thread only; approximate reads.
    private volatile long messagesSent;
    private volatile long bytesSent;
    private volatile long creditWrites;

    /**
     * @param credits this node's credit and phase words ({@link CreditWordsDescriptor}), written by the peers
     * @param sendDepth sends the queue pairs take at once
     */
    SendPoster(
            int self,
            int nodes,
            HyperConfig config,
            MessagePool pool,
            PeerLink[] links,
            MemoryRegion credits,
            int sendDepth,
            PeerFailure failure) {
        this.self = self;
        this.nodes = nodes;
        this.config = config;
        this.pool = pool;
        this.links = links;
        this.creditWords = credits.segment();
        this.sendDepth = sendDepth;
        this.failure = failure;
        this.schedule = new PhaseSchedule(self, nodes, config.phaseQuota(), this, creditWords);
        MemorySegment scratch = Arena.ofAuto().allocate(MessageDescriptor.LENGTH + 8, 8);
        this.endHeader = scratch.asSlice(0, MessageDescriptor.LENGTH);
        this.wordValue = scratch.asSlice(MessageDescriptor.LENGTH, 8);
    }

    /** Posts what the send queues hold, as credit, the queue pairs and the schedule allow; returns how much. */
    int postSends() {
        if (isScheduled()) {
            return schedule.doWork();
        }
        int work = 0;
        for (int k = 0; k < nodes; k++) {
            int peer = (startPeer + k) % nodes;
            work += sendFrom(peer, Integer.MAX_VALUE);
        }
        startPeer = startPeer + 1 == nodes ? 0 : startPeer + 1;
        return work;
    }

    /** Whether something queued could be posted now (else the network thread may park). */
    boolean hasSendable() {
        if (isScheduled()) {
            return schedule.canSend(); // waiting for peers' phase words: park, do not spin
        }
        for (int peer = 0; peer < nodes; peer++) {
            if (peer != self && !links[peer].sendQueue.unsynchronizedIsEmpty() && canPost(peer)) {
                return true;
            }
        }
        return false;
    }

    private boolean isScheduled() {
        return config.schedule() == NetworkSchedule.ROUND_ROBIN && nodes > 2 && allConnectedAndHealthy();
    }

    /** Whether every peer's queue pair is connected and has not failed. */
    boolean allConnectedAndHealthy() {
        for (int peer = 0; peer < nodes; peer++) {
            if (peer != self && (!links[peer].isConnected() || links[peer].failed())) {
                return false;
            }
        }
        return true;
    }

    /** Writes each peer's credit word where receives were posted again since the last write; returns how many. */
    int writeCredits() {
        int work = 0;
        for (int peer = 0; peer < nodes; peer++) {
            PeerLink link = links[peer];
            if (peer == self
                    || link.creditInFlight
                    || link.reposted == link.creditWritten
                    || link.failed()
                    || !link.isConnected()) {
                continue;
            }
            wordValue.set(ValueLayout.JAVA_LONG, 0, link.reposted);
            request.clear()
                    .requestId(RequestIds.of(RequestIds.KIND_CREDIT, link.epoch, peer, 0))
                    .opcode(Opcode.WRITE)
                    .inline(wordValue)
                    .remote(link.creditKey(), CreditWordsDescriptor.creditOffset(self));
            if (postSend(peer)) {
                link.creditInFlight = true;
                link.creditWritten = link.reposted;
                creditWrites++;
                work++;
            }
        }
        return work;
    }

    @Override
    public int writePhases(long value) {
        int work = 0;
        for (int peer = 0; peer < nodes; peer++) {
            PeerLink link = links[peer];
            if (peer == self || link.phaseInFlight || link.phaseWritten == value || link.outstanding >= sendDepth) {
                continue;
            }
            wordValue.set(ValueLayout.JAVA_LONG, 0, value);
            request.clear()
                    .requestId(RequestIds.of(RequestIds.KIND_PHASE, link.epoch, peer, 0))
                    .opcode(Opcode.WRITE)
                    .inline(wordValue)
                    .remote(link.creditKey(), CreditWordsDescriptor.phaseOffset(self));
            if (postSend(peer)) {
                link.phaseInFlight = true;
                link.phaseWritten = value;
                work++;
            }
        }
        return work;
    }

    @Override
    public int sendFrom(int peer, int max) {
        if (peer == self || !links[peer].isConnected()) {
            return 0;
        }
        PeerLink link = links[peer];
        if (link.failed()) {
            dropQueued(peer);
            return 0;
        }
        IndexQueue queue = link.sendQueue;
        int count = 0;
        int entry;
        while (count < max
                && (entry = queue.peek(Multiplexer.EMPTY)) != Multiplexer.EMPTY
                && hasCredit(peer)
                && link.outstanding < sendDepth - 2
                && (config.postedPerPeer() == 0 || link.outstandingData < config.postedPerPeer())) {
            queue.poll(Multiplexer.EMPTY);
            if (entry >= 0) {
                Message message = pool.message(entry);
                int bytes = MessageDescriptor.LENGTH + MessageDescriptor.bytesUsed(message.segment);
                request.clear()
                        .requestId(RequestIds.of(RequestIds.KIND_DATA, link.epoch, peer, entry))
                        .opcode(Opcode.SEND)
                        .local(message.region, message.regionOffset, bytes);
                if (!postSend(peer)) {
                    pool.releaseSend(entry);
                    break;
                }
                bytesSent += bytes;
            } else {
                MessageDescriptor.write(endHeader, -entry - 2, self, MessageDescriptor.FLAG_LAST, 0);
                request.clear()
                        .requestId(RequestIds.of(RequestIds.KIND_END, link.epoch, peer, 0))
                        .opcode(Opcode.SEND)
                        .inline(endHeader);
                if (!postSend(peer)) {
                    break;
                }
            }
            link.outstandingData++;
            link.inFlight.offer(entry);
            link.sent++;
            messagesSent++;
            count++;
        }
        return count;
    }

    /** Posts {@link #request} on {@code peer}'s queue pair; false (and the peer failed) when posting threw. */
    private boolean postSend(int peer) {
        try {
            links[peer].queuePair.postSend(request);
            links[peer].outstanding++;
            return true;
        } catch (FaroException e) {
            failure.failPeer(peer, "posting a send: " + e.getMessage());
            return false;
        }
    }

    /** Releases what waits to go to a failed peer; returns how many entries left the queue. */
    int dropQueued(int peer) {
        int work = 0;
        int entry;
        while ((entry = links[peer].sendQueue.poll(Multiplexer.EMPTY)) != Multiplexer.EMPTY) {
            if (entry >= 0) {
                pool.releaseSend(entry);
            }
            work++;
        }
        return work;
    }

    @Override
    public boolean queueEmpty(int peer) {
        return links[peer].sendQueue.unsynchronizedIsEmpty();
    }

    @Override
    public boolean hasCredit(int peer) {
        return links[peer].hasCredit(config.receivesPerPeer(), CreditWordsDescriptor.credit(creditWords, peer));
    }

    @Override
    public boolean canPost(int peer) {
        return hasCredit(peer) && (config.postedPerPeer() == 0 || links[peer].outstandingData < config.postedPerPeer());
    }

    @Override
    public int outstandingData(int peer) {
        return links[peer].outstandingData;
    }

    /**
     * Per peer, what was sent, is outstanding and was credited, and the schedule's state: for a stall's report (racy
     * reads of network-thread fields). Coordination code.
     */
    String describe() {
        StringBuilder text = new StringBuilder();
        for (int peer = 0; peer < nodes; peer++) {
            PeerLink link = links[peer];
            if (peer == self) {
                continue;
            }
            text.append("; to ")
                    .append(peer)
                    .append(link.isConnected() ? "" : " (unconnected)")
                    .append(link.failed() ? " (failed)" : "")
                    .append(": sent ")
                    .append(link.sent)
                    .append(", outstanding ")
                    .append(link.outstanding)
                    .append(" (data ")
                    .append(link.outstandingData)
                    .append("), queued ")
                    .append(link.sendQueue.unsynchronizedIsEmpty() ? "none" : "some")
                    .append(", credit word ")
                    .append(CreditWordsDescriptor.credit(creditWords, peer))
                    .append(", reposted ")
                    .append(link.reposted)
                    .append(" (written ")
                    .append(link.creditWritten)
                    .append(link.creditInFlight ? ", in flight" : "")
                    .append("), phase written ")
                    .append(link.phaseWritten)
                    .append(link.phaseInFlight ? " (in flight)" : "");
        }
        return (isScheduled() ? schedule.describe() : "unscheduled") + text;
    }

    /** Round-robin phases this node completed. Approximate. */
    long phases() {
        return schedule.phases();
    }

    long messagesSent() {
        return messagesSent;
    }

    long bytesSent() {
        return bytesSent;
    }

    long creditWrites() {
        return creditWrites;
    }
}
