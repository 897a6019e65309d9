package dev.faro.hyper;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * The round-robin schedule against scripted sends and phase words: the multiplexer's posting and the peers' network
 * threads are played by the test, so each case is deterministic.
 */
class PhaseScheduleTest {

    /** Node 0 of 3: in phase 0 it sends to node 1, in phase 1 to node 2. */
    private static final int SELF = 0;

    private static final int NODES = 3;

    /**
     * The stall of the round-robin warm-up (links capped): node 0 announced phase 1, but its write to node 2 waited
     * behind the previous phase write to node 2 (at most one in flight); node 1 and node 2 announced, so node 0 moved
     * to phase 1 with nothing queued. Node 2 waits for node 0's word to move on, node 1 idles in phase 1 as node 0
     * does: node 0 must still write the word once the earlier write completed, although it has nothing to send.
     */
    @Test
    void anIdleNodeStillWritesThePhaseWordItOwesAPeer() {
        ScriptedSends sends = new ScriptedSends();
        MemorySegment words = Arena.ofAuto().allocate(CreditWordsDescriptor.regionLength(NODES), 8);
        PhaseSchedule schedule = new PhaseSchedule(SELF, NODES, 8, sends, words);
        sends.queued[1] = 1;
        sends.inFlight[2] = true; // an earlier phase write to node 2 not completed yet
        announcePhase(words, 1, 1);
        announcePhase(words, 2, 1);

        schedule.doWork(); // sends to node 1, announces phase 1, writes it to node 1 only, and moves to phase 1

        assertThat(schedule.phases()).isEqualTo(1);
        assertThat(sends.written).containsExactly(0, 1, 0);
        sends.inFlight[2] = false; // the earlier write completed
        for (int step = 0; step < 3; step++) {
            schedule.doWork();
        }
        assertThat(sends.written[2]).as("phase word written to node 2").isEqualTo(1);
        assertThat(schedule.phases()).isEqualTo(1); // nothing queued and no peer ahead: it stays
    }

    /** A node with nothing queued and no peer ahead does nothing, so an idle cluster stops switching phases. */
    @Test
    void anIdleClusterStaysInItsPhase() {
        ScriptedSends sends = new ScriptedSends();
        MemorySegment words = Arena.ofAuto().allocate(CreditWordsDescriptor.regionLength(NODES), 8);
        PhaseSchedule schedule = new PhaseSchedule(SELF, NODES, 8, sends, words);

        assertThat(schedule.doWork()).isZero();
        assertThat(schedule.phases()).isZero();
        assertThat(sends.written).containsExactly(0, 0, 0);
    }

    /** A node with nothing queued follows a peer that is ahead of it. */
    @Test
    void anIdleNodeFollowsAPeerAhead() {
        ScriptedSends sends = new ScriptedSends();
        MemorySegment words = Arena.ofAuto().allocate(CreditWordsDescriptor.regionLength(NODES), 8);
        PhaseSchedule schedule = new PhaseSchedule(SELF, NODES, 8, sends, words);
        announcePhase(words, 1, 1);

        schedule.doWork();

        assertThat(sends.written).containsExactly(0, 1, 1);
        assertThat(schedule.phases()).isZero(); // node 2 has not announced yet
        announcePhase(words, 2, 1);
        schedule.doWork();
        assertThat(schedule.phases()).isEqualTo(1);
    }

    private static void announcePhase(MemorySegment words, int peer, long phase) {
        words.set(ValueLayout.JAVA_LONG, CreditWordsDescriptor.phaseOffset(peer), phase);
    }

    /** Sends that complete at once, with credit; phase writes land at once unless one is marked in flight. */
    private static final class ScriptedSends implements PhaseSchedule.Sends {
        final int[] queued = new int[NODES];
        final boolean[] inFlight = new boolean[NODES];
        final long[] written = new long[NODES];

        @Override
        public int sendFrom(int peer, int max) {
            int count = Math.min(max, queued[peer]);
            queued[peer] -= count;
            return count;
        }

        @Override
        public boolean queueEmpty(int peer) {
            return queued[peer] == 0;
        }

        @Override
        public boolean hasCredit(int peer) {
            return true;
        }

        @Override
        public boolean canPost(int peer) {
            return true;
        }

        @Override
        public int outstandingData(int peer) {
            return 0;
        }

        @Override
        public int writePhases(long value) {
            int work = 0;
            for (int peer = 0; peer < NODES; peer++) {
                if (peer != SELF && !inFlight[peer] && written[peer] != value) {
                    written[peer] = value;
                    work++;
                }
            }
            return work;
        }
    }
}
