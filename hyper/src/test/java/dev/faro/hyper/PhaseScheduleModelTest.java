package dev.faro.hyper;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Three nodes' round-robin schedules played against each other in one thread: data sends and phase writes complete
 * after seeded random delays (a phase write lands in the peer's word soon, and completes when its acknowledgement
 * came back, maybe much later; at most one in flight per peer, as {@link SendPoster} posts them), and every node
 * must send everything it queued. Slow acknowledgements of phase writes are what stalled the round-robin warm-up
 * over capped links.
 */
class PhaseScheduleModelTest {

    private static final int NODES = 3;
    private static final int QUOTA = 8;
    private static final int POSTED = 4;
    private static final int TICKS = 200_000;

    @Test
    void everyNodeSendsEverythingWhateverTheDelays() {
        for (int seed = 0; seed < 300; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            Node[] nodes = new Node[NODES];
            for (int node = 0; node < NODES; node++) {
                nodes[node] = new Node(node, nodes, random);
            }
            for (Node node : nodes) {
                for (int peer = 0; peer < NODES; peer++) {
                    node.queued[peer] = peer == node.self ? 0 : 1 + random.nextInt(20);
                }
            }
            int tick = 0;
            while (tick < TICKS && !allSent(nodes)) {
                for (int k = 0; k < NODES; k++) {
                    Node node = nodes[(tick + k) % NODES];
                    node.complete(tick);
                    node.schedule.doWork();
                }
                tick++;
            }
            assertThat(allSent(nodes))
                    .as("seed %d: every queued message sent", seed)
                    .isTrue();
        }
    }

    private static boolean allSent(Node[] nodes) {
        for (Node node : nodes) {
            for (int peer = 0; peer < NODES; peer++) {
                if (node.queued[peer] > 0 || node.completions[peer].size() > 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** One node: its schedule, its queues and what it posted. */
    private static final class Node implements PhaseSchedule.Sends {
        final int self;
        final Node[] nodes;
        final SplittableRandom random;
        final MemorySegment words = Arena.ofAuto().allocate(CreditWordsDescriptor.regionLength(NODES), 8);
        final PhaseSchedule schedule;
        final int[] queued = new int[NODES];
        /** Per peer: when each posted data send completes. */
        @SuppressWarnings("unchecked")
        final ArrayDeque<Integer>[] completions = new ArrayDeque[NODES];
        /** Per peer: when the phase write in flight lands in the peer's word, or -1 once it landed. */
        final int[] writeLandsAt = new int[NODES];
        /** Per peer: when the phase write in flight completes (its acknowledgement came back), or -1. */
        final int[] writeDoneAt = new int[NODES];

        final long[] written = new long[NODES];
        int now;

        Node(int self, Node[] nodes, SplittableRandom random) {
            this.self = self;
            this.nodes = nodes;
            this.random = random;
            this.schedule = new PhaseSchedule(self, NODES, QUOTA, this, words);
            for (int peer = 0; peer < NODES; peer++) {
                completions[peer] = new ArrayDeque<>();
                writeDoneAt[peer] = -1;
                writeLandsAt[peer] = -1;
            }
        }

        /** Completes what is due at {@code tick}: data sends, and phase writes (which land in the peer's word). */
        void complete(int tick) {
            now = tick;
            for (int peer = 0; peer < NODES; peer++) {
                while (!completions[peer].isEmpty() && completions[peer].peek() <= tick) {
                    completions[peer].poll();
                }
                if (writeLandsAt[peer] >= 0 && writeLandsAt[peer] <= tick) {
                    writeLandsAt[peer] = -1;
                    nodes[peer].words.set(
                            ValueLayout.JAVA_LONG, CreditWordsDescriptor.phaseOffset(self), written[peer]);
                }
                if (writeDoneAt[peer] >= 0 && writeDoneAt[peer] <= tick && writeLandsAt[peer] < 0) {
                    writeDoneAt[peer] = -1;
                }
            }
        }

        @Override
        public int sendFrom(int peer, int max) {
            int count = 0;
            while (count < max && queued[peer] > 0 && canPost(peer)) {
                queued[peer]--;
                completions[peer].add(now + 1 + random.nextInt(5)); // in order on the queue pair
                count++;
            }
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
            return completions[peer].size() < POSTED;
        }

        @Override
        public int outstandingData(int peer) {
            return completions[peer].size();
        }

        @Override
        public int writePhases(long value) {
            int work = 0;
            for (int peer = 0; peer < NODES; peer++) {
                if (peer != self && writeDoneAt[peer] < 0 && written[peer] != value) {
                    written[peer] = value;
                    writeLandsAt[peer] = now + 1 + random.nextInt(3);
                    // the acknowledgement is slow: behind the peer's data on a capped link
                    writeDoneAt[peer] = writeLandsAt[peer] + random.nextInt(40);
                    work++;
                }
            }
            return work;
        }
    }
}
