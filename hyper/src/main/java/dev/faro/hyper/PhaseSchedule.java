package dev.faro.hyper;

import java.lang.foreign.MemorySegment;

/**
 * Round-robin network scheduling (VLDB16 §3.2.3, {@link NetworkSchedule#ROUND_ROBIN}) on a multiplexer's network
 * thread: in phase {@code k} this node sends only to node {@code (self + 1 + k mod (n−1)) mod n}, at most the phase
 * quota; when the quota is reached, or the target's queue is empty or without credit, and the phase's sends
 * completed, it announces the next phase to every peer (the multiplexer writes the number into each peer's phase
 * word, {@link CreditWordsDescriptor}); it moves on once every peer announced it. A node with nothing queued takes
 * part only while a peer is ahead of it (waiting for it), so an idle cluster stops switching phases; it still writes
 * the phase word it owes a peer (a write deferred while the previous one to that peer was in flight).
 *
 * <p>Network thread only. Data path: allocation-free.
 */
final class PhaseSchedule {

    /** What the schedule needs of its multiplexer (all on the network thread). */
    interface Sends {
        /** Posts up to {@code max} queued entries for {@code peer}; returns how many. */
        int sendFrom(int peer, int max);

        boolean queueEmpty(int peer);

        boolean hasCredit(int peer);

        /** Credit, and fewer data messages posted and not completed than the configured limit. */
        boolean canPost(int peer);

        /** Data messages and end markers posted to {@code peer} and not completed. */
        int outstandingData(int peer);

        /** Writes {@code value} into every peer's phase word where it is not written yet; returns the writes. */
        int writePhases(long value);
    }

    private final int self;
    private final int nodes;
    private final int quota;
    private final Sends sends;
    private final MemorySegment phaseWords;
    private long phase;
    private boolean announced;
    private int sentInPhase;
    /** Phases completed; written by the network thread, approximate reads. */
    private volatile long phases;

    /**
     * @param phaseWords this node's credit region (where peers announce their phases)
     */
    PhaseSchedule(int self, int nodes, int quota, Sends sends, MemorySegment phaseWords) {
        this.self = self;
        this.nodes = nodes;
        this.quota = quota;
        this.sends = sends;
        this.phaseWords = phaseWords;
    }

    long phases() {
        return phases;
    }

    /** The schedule's state, for a stall's report (racy reads of network-thread fields). Coordination code. */
    String describe() {
        StringBuilder words = new StringBuilder();
        for (int peer = 0; peer < nodes; peer++) {
            if (peer != self) {
                words.append(words.isEmpty() ? "" : ",")
                        .append(peer)
                        .append(':')
                        .append(CreditWordsDescriptor.phase(phaseWords, peer));
            }
        }
        return "phase " + phase + (announced ? " announced" : "") + ", sent " + sentInPhase + " in it, target "
                + target() + ", peers' phase words {" + words + "}";
    }

    /** Whether a step would post a message now: the phase's target has queued messages and credit. */
    boolean canSend() {
        if (announced || sentInPhase >= quota) {
            return false;
        }
        int target = target();
        return !sends.queueEmpty(target) && sends.canPost(target);
    }

    private int target() {
        return (int) ((self + 1 + phase % (nodes - 1)) % nodes);
    }

    /** One step: returns the work done (messages posted, phase writes, phase changes). */
    int doWork() {
        int work = 0;
        // an idle node skips only the sending: a phase word it owes a peer (its write waited behind the previous
        // one in flight, and the node moved on with nothing queued) is still written, or that peer waits forever
        if (!announced && (anyQueued() || anyPeerPast(phase))) {
            int target = target();
            int count = sends.sendFrom(target, quota - sentInPhase);
            sentInPhase += count;
            work += count;
            boolean done = sentInPhase >= quota || sends.queueEmpty(target) || !sends.hasCredit(target);
            if (done && sends.outstandingData(target) == 0) {
                announced = true;
                work++;
            }
        }
        work += sends.writePhases(phase + (announced ? 1 : 0));
        if (announced && allPeersPast(phase)) {
            phase++;
            announced = false;
            sentInPhase = 0;
            phases++;
            work++;
        }
        return work;
    }

    private boolean anyQueued() {
        for (int peer = 0; peer < nodes; peer++) {
            if (peer != self && !sends.queueEmpty(peer)) {
                return true;
            }
        }
        return false;
    }

    /** Whether some peer announced the end of phase {@code p} (it waits for this node). */
    private boolean anyPeerPast(long p) {
        for (int peer = 0; peer < nodes; peer++) {
            if (peer != self && CreditWordsDescriptor.phase(phaseWords, peer) > p) {
                return true;
            }
        }
        return false;
    }

    private boolean allPeersPast(long p) {
        for (int peer = 0; peer < nodes; peer++) {
            if (peer != self && CreditWordsDescriptor.phase(phaseWords, peer) <= p) {
                return false;
            }
        }
        return true;
    }
}
