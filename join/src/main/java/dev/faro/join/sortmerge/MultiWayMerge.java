package dev.faro.join.sortmerge;

import dev.faro.fabric.FaroException;
import dev.faro.join.workload.Tuples;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Merges sorted runs of 16-byte tuples into one sorted sequence in a single pass of fan-in = number of runs (thesis
 * §3.2.2 step 4; the thesis merges through an in-cache merge tree, depth 3 on the Cray): a tournament tree of run
 * heads. Each head is one long, {@code key << RUN_INDEX_BITS | run} (keys are below {@code 2^47}, as
 * {@link RunSorter} requires), so that a node of the tree is the minimum of its children and a level costs one load
 * and one branch-free minimum; an exhausted run's head is {@link Long#MAX_VALUE}. After the winner is written out, its
 * run's next head replaces its leaf and the path to the root is recomputed: the siblings on the path depend only on
 * the run, so their loads overlap, and the only dependent chain is {@code log2(fan-in)} minima. Data path:
 * allocation-free once its arrays fit the largest run count; thread-confined.
 *
 * <p>The heap it replaced did two data-dependent, mispredicted compare-and-swaps per level (16 M tuples per second
 * at fan-in 512). One pass of fan-in = runs per core is Eq. 3.17's depth 1, and P_merge is measured at that fan-in
 * with this kernel ({@link SortMergeMicroBenchmarks}), so Eq. 3.18 holds.
 */
final class MultiWayMerge {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int RUN_BITS = SortMergeJoinConfig.RUN_INDEX_BITS;
    private static final long RUN_MASK = (1L << RUN_BITS) - 1;
    /** The most runs one merge takes: a run's index must fit the head's low bits. */
    static final int MAX_RUNS = 1 << RUN_BITS;

    private static final long EXHAUSTED = Long.MAX_VALUE;
    /** Tuples a run's buffer holds: 512 B, eight cache lines copied at once. */
    static final int BUFFER_TUPLES = 32;

    /** The tournament tree: node {@code n}'s children are {@code 2n} and {@code 2n + 1}; leaves from {@code leaves}. */
    private long[] tree = new long[0];

    /** By run: the next tuple of the run not yet in its buffer, and the run's end (tuple indexes of the source). */
    private long[] position = new long[0];

    private long[] end = new long[0];
    /**
     * By run, {@code BUFFER_TUPLES} tuples copied from the run as (key, rid) longs: the heads are read from here, in
     * cache, and a run's next block is copied in one bulk copy (its cache misses overlap) when its buffer is used up.
     */
    private long[] buffered = new long[0];
    /** By run: the index in {@link #buffered} of its head, and of the end of its buffered tuples. */
    private int[] head = new int[0];

    private int[] bufferEnd = new int[0];

    /**
     * Merges the runs {@code [starts[i], ends[i])} (tuple indexes of {@code source}) into {@code target} from tuple
     * {@code targetFrom} on.
     */
    void merge(MemorySegment source, long[] starts, long[] ends, int runs, MemorySegment target, long targetFrom) {
        FaroException.checkArgument(runs <= MAX_RUNS, "at most %d runs in one merge: %d", MAX_RUNS, runs);
        int leaves = runs <= 1 ? 1 : Integer.highestOneBit(runs - 1) << 1;
        if (tree.length < 2 * leaves) {
            tree = new long[2 * leaves];
        }
        if (position.length < runs) {
            position = new long[runs];
            end = new long[runs];
            buffered = new long[runs * 2 * BUFFER_TUPLES];
            head = new int[runs];
            bufferEnd = new int[runs];
        }
        long total = 0;
        for (int run = 0; run < leaves; run++) {
            long first = EXHAUSTED;
            if (run < runs) {
                position[run] = starts[run];
                end[run] = ends[run];
                total += Math.max(0, ends[run] - starts[run]);
                refill(source, run);
                if (head[run] < bufferEnd[run]) {
                    first = buffered[head[run]] << RUN_BITS | run;
                }
            }
            tree[leaves + run] = first;
        }
        for (int node = leaves - 1; node >= 1; node--) {
            tree[node] = Math.min(tree[2 * node], tree[2 * node + 1]);
        }
        long out = targetFrom * Tuples.TUPLE_LENGTH;
        long[] tree = this.tree;
        long[] buffered = this.buffered;
        int[] head = this.head;
        int[] bufferEnd = this.bufferEnd;
        for (long emitted = 0; emitted < total; emitted++) {
            long winner = tree[1]; // the root (with one run, its leaf)
            int run = (int) (winner & RUN_MASK);
            int at = head[run];
            target.set(LONG, out, winner >>> RUN_BITS);
            target.set(LONG, out + Tuples.RID_OFFSET, buffered[at + 1]);
            out += Tuples.TUPLE_LENGTH;
            at += 2;
            head[run] = at;
            if (at == bufferEnd[run]) {
                refill(source, run);
                at = head[run];
            }
            long next = at < bufferEnd[run] ? buffered[at] << RUN_BITS | run : EXHAUSTED;
            int node = leaves + run;
            tree[node] = next;
            while (node > 1) {
                next = Math.min(next, tree[node ^ 1]);
                node >>>= 1;
                tree[node] = next;
            }
        }
    }

    /** Copies run {@code run}'s next block into its buffer (none left: an empty buffer). */
    private void refill(MemorySegment source, int run) {
        int count = (int) Math.min(BUFFER_TUPLES, end[run] - position[run]);
        int base = run * 2 * BUFFER_TUPLES;
        if (count > 0) {
            MemorySegment.copy(source, LONG, position[run] * Tuples.TUPLE_LENGTH, buffered, base, 2 * count);
            position[run] += count;
        }
        head[run] = base;
        bufferEnd[run] = base + 2 * Math.max(0, count);
    }
}
