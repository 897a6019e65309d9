package dev.faro.join.radix;

import dev.faro.join.JoinResult;
import dev.faro.join.workload.Tuples;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One thread's build-and-probe of cache-sized partitions (thesis §3.2.1 phase 4): a bucket-chained hash table over
 * the inner partition (bucket array and next array, indexed by the key bits above the radix bits used so far), probed
 * by every tuple of the outer partition; matches are counted and summed into the checksum, not materialised. A built
 * table may be probed by other kernels on other threads at once ({@link #probe}), read-only.
 *
 * <p>Data path: allocation-free once its arrays have grown to the largest partition. Thread-confined, except that
 * a built table may be read by other threads once the build happened-before their probes (the end of a phase).
 */
final class BuildProbe {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private long[] keys = new long[0];
    private long[] rids = new long[0];
    private int[] next = new int[0];
    private int[] buckets = new int[0];
    private int shift;
    private int mask;
    private long matches;
    private long checksum;
    private long probed;

    /**
     * Joins inner tuples {@code [innerFrom, innerTo)} of {@code inner} with outer tuples {@code [outerFrom, outerTo)}
     * of {@code outer}; {@code shift} is the number of low key bits all of them share (already used by partitioning).
     */
    void join(
            MemorySegment inner,
            long innerFrom,
            long innerTo,
            MemorySegment outer,
            long outerFrom,
            long outerTo,
            int shift) {
        if (innerTo == innerFrom || outerTo == outerFrom) {
            return;
        }
        build(inner, innerFrom, innerTo, shift);
        probe(this, outer, outerFrom, outerTo);
    }

    /** Builds this kernel's table over inner tuples {@code [innerFrom, innerTo)}; it stays until the next build. */
    void build(MemorySegment inner, long innerFrom, long innerTo, int shift) {
        int n = (int) (innerTo - innerFrom);
        int bucketCount = Integer.highestOneBit(Math.max(1, n) * 2 - 1);
        grow(n, bucketCount);
        this.shift = shift;
        this.mask = bucketCount - 1;
        java.util.Arrays.fill(buckets, 0, bucketCount, 0);
        long at = innerFrom * Tuples.TUPLE_LENGTH;
        for (int i = 0; i < n; i++, at += Tuples.TUPLE_LENGTH) {
            long key = inner.get(LONG, at);
            keys[i] = key;
            rids[i] = inner.get(LONG, at + Tuples.RID_OFFSET);
            int bucket = (int) (key >>> shift) & mask;
            next[i] = buckets[bucket];
            buckets[bucket] = i + 1;
        }
    }

    /**
     * Probes {@code table}'s table (built, read-only: several threads may probe one table at once, the thesis's skew
     * handling) with outer tuples {@code [outerFrom, outerTo)}; the matches count in this kernel's result.
     */
    void probe(BuildProbe table, MemorySegment outer, long outerFrom, long outerTo) {
        long[] tableKeys = table.keys;
        long[] tableRids = table.rids;
        int[] tableNext = table.next;
        int[] tableBuckets = table.buckets;
        int tableShift = table.shift;
        int tableMask = table.mask;
        long found = 0;
        long sum = 0;
        long end = outerTo * Tuples.TUPLE_LENGTH;
        for (long at = outerFrom * Tuples.TUPLE_LENGTH; at < end; at += Tuples.TUPLE_LENGTH) {
            long key = outer.get(LONG, at);
            for (int i = tableBuckets[(int) (key >>> tableShift) & tableMask]; i != 0; i = tableNext[i - 1]) {
                if (tableKeys[i - 1] == key) {
                    found++;
                    sum += Tuples.pairHash(tableRids[i - 1], outer.get(LONG, at + Tuples.RID_OFFSET));
                }
            }
        }
        matches += found;
        checksum += sum;
        probed += outerTo - outerFrom;
    }

    private void grow(int n, int bucketCount) {
        if (keys.length < n) {
            keys = new long[n];
            rids = new long[n];
            next = new int[n];
        }
        if (buckets.length < bucketCount) {
            buckets = new int[bucketCount];
        }
    }

    JoinResult result() {
        return new JoinResult(matches, checksum);
    }

    /** The outer tuples this kernel has probed. */
    long probed() {
        return probed;
    }
}
