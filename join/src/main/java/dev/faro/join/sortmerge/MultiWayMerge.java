package dev.faro.join.sortmerge;

import dev.faro.join.workload.Tuples;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Merges sorted runs of 16-byte tuples into one sorted sequence in a single pass of fan-in = number of runs (thesis
 * §3.2.2 step 4; the thesis merges through an in-cache merge tree, depth 3 on the Cray): a binary min-heap of run
 * heads by key. Data path: allocation-free once its arrays fit the largest run count; thread-confined.
 *
 * <p>For the model the heap is faithful enough: one pass of fan-in = runs per core is Eq. 3.17's depth 1, and
 * P_merge is measured at that fan-in with this kernel ({@link SortMergeMicroBenchmarks}), so Eq. 3.18 holds. Its rate
 * is not the thesis's: about 16 M tuples per CPU second at fan-in 512 against 270, since each output tuple costs
 * log2(fan-in) data-dependent compare-and-swap levels where the thesis merges with SIMD bitonic networks in cache.
 */
final class MultiWayMerge {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private long[] heapKeys = new long[0];
    private int[] heapRuns = new int[0];
    private long[] position = new long[0];

    /**
     * Merges the runs {@code [starts[i], ends[i])} (tuple indexes of {@code source}) into {@code target} from tuple
     * {@code targetFrom} on.
     */
    void merge(MemorySegment source, long[] starts, long[] ends, int runs, MemorySegment target, long targetFrom) {
        if (heapKeys.length < runs) {
            heapKeys = new long[runs];
            heapRuns = new int[runs];
            position = new long[runs];
        }
        int size = 0;
        for (int run = 0; run < runs; run++) {
            position[run] = starts[run];
            if (starts[run] < ends[run]) {
                heapKeys[size] = source.get(LONG, starts[run] * Tuples.TUPLE_LENGTH);
                heapRuns[size] = run;
                siftUp(size++);
            }
        }
        long out = targetFrom * Tuples.TUPLE_LENGTH;
        while (size > 0) {
            int run = heapRuns[0];
            long at = position[run]++ * Tuples.TUPLE_LENGTH;
            target.set(LONG, out, heapKeys[0]);
            target.set(LONG, out + Tuples.RID_OFFSET, source.get(LONG, at + Tuples.RID_OFFSET));
            out += Tuples.TUPLE_LENGTH;
            if (position[run] < ends[run]) {
                heapKeys[0] = source.get(LONG, position[run] * Tuples.TUPLE_LENGTH);
            } else {
                size--;
                heapKeys[0] = heapKeys[size];
                heapRuns[0] = heapRuns[size];
            }
            siftDown(0, size);
        }
    }

    private void siftUp(int at) {
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (heapKeys[parent] <= heapKeys[at]) {
                return;
            }
            swap(at, parent);
            at = parent;
        }
    }

    private void siftDown(int at, int size) {
        while (true) {
            int left = 2 * at + 1;
            if (left >= size) {
                return;
            }
            int smaller = left + 1 < size && heapKeys[left + 1] < heapKeys[left] ? left + 1 : left;
            if (heapKeys[at] <= heapKeys[smaller]) {
                return;
            }
            swap(at, smaller);
            at = smaller;
        }
    }

    private void swap(int a, int b) {
        long key = heapKeys[a];
        heapKeys[a] = heapKeys[b];
        heapKeys[b] = key;
        int run = heapRuns[a];
        heapRuns[a] = heapRuns[b];
        heapRuns[b] = run;
    }
}
