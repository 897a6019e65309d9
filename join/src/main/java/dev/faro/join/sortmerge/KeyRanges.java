package dev.faro.join.sortmerge;

import dev.faro.join.rma.Collectives;
import dev.faro.join.workload.Tuples;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The key ranges of a sort-merge join, one per core: equal-width over the global key domain (the thesis, for uniform
 * keys), or bounded by splitters drawn from an evenly spaced sample of every rank's keys (samplesort, for skew).
 * Equal keys always fall into one range. Agreed by all ranks through an all-gather; {@link #range} is allocation-free.
 */
final class KeyRanges {

    private final long min;
    private final long width;
    private final long[] splitters;
    private final int ranges;

    private KeyRanges(long min, long width, long[] splitters, int ranges) {
        this.min = min;
        this.width = width;
        this.splitters = splitters;
        this.ranges = ranges;
    }

    /**
     * Equal-width ranges over the global key domain from each rank's {@code minMax} (its smallest and largest key,
     * {@link #minMax(MemorySegment[], long[], int, int)} combined over its threads).
     */
    static KeyRanges equalWidth(Collectives collectives, long[] minMax, int ranges) {
        long[] all = collectives.allGather(minMax);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int r = 0; r < all.length; r += 2) {
            min = Math.min(min, all[r]);
            max = Math.max(max, all[r + 1]);
        }
        return equalWidth(min, max, ranges);
    }

    /** Equal-width ranges over {@code [min, max]} (empty when {@code max < min}). */
    static KeyRanges equalWidth(long min, long max, int ranges) {
        long width = max < min ? 1 : Math.max(1, (max - min) / ranges + 1);
        return new KeyRanges(min, width, null, ranges);
    }

    /** Equal-width ranges over the keys of {@code input} alone (no other rank). */
    static KeyRanges equalWidthLocal(MemorySegment[] input, long[] tuples, int ranges) {
        long[] minMax = minMax(input, tuples);
        return equalWidth(minMax[0], minMax[1], ranges);
    }

    private static long[] minMax(MemorySegment[] input, long[] tuples) {
        return minMax(input, tuples, 0, 1);
    }

    /** The smallest and largest key of thread {@code t}'s slice (of {@code threads}) of each relation. */
    static long[] minMax(MemorySegment[] input, long[] tuples, int t, int threads) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int rel = 0; rel < input.length; rel++) {
            for (long i = tuples[rel] * t / threads; i < tuples[rel] * (t + 1) / threads; i++) {
                long key = Tuples.key(input[rel], i);
                min = Math.min(min, key);
                max = Math.max(max, key);
            }
        }
        return new long[] {min, max};
    }

    /** The smallest of the first and the largest of the second elements of {@code minMaxes}. */
    static long[] combine(long[][] minMaxes) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long[] minMax : minMaxes) {
            min = Math.min(min, minMax[0]);
            max = Math.max(max, minMax[1]);
        }
        return new long[] {min, max};
    }

    static KeyRanges sampled(Collectives collectives, MemorySegment[] input, long[] tuples, int ranges, int sample) {
        return fromSample(collectives.allGather(sample(input, tuples, sample)), ranges);
    }

    /** An evenly spaced sample of {@code sample} keys of each relation of {@code input}. */
    static long[] sample(MemorySegment[] input, long[] tuples, int sample) {
        long[] mine = new long[2 * sample];
        int at = 0;
        for (int rel = 0; rel < input.length; rel++) {
            for (int i = 0; i < sample; i++) {
                mine[at++] = tuples[rel] == 0 ? Long.MAX_VALUE : Tuples.key(input[rel], tuples[rel] * i / sample);
            }
        }
        return mine;
    }

    /** Splitters at even quantiles of {@code sample} (sorted in place). */
    static KeyRanges fromSample(long[] all, int ranges) {
        Arrays.sort(all);
        long[] splitters = new long[ranges - 1];
        for (int j = 0; j < ranges - 1; j++) {
            splitters[j] = all[(int) ((long) all.length * (j + 1) / ranges)];
        }
        return new KeyRanges(0, 0, splitters, ranges);
    }

    /** The range of {@code key}, in {@code [0, ranges)}. */
    int range(long key) {
        if (splitters == null) {
            long r = (key - min) / width;
            return r < 0 ? 0 : r >= ranges ? ranges - 1 : (int) r;
        }
        int low = 0;
        int high = splitters.length; // first splitter >= key, or the last range
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (splitters[mid] < key) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }
}
