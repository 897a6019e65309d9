package dev.faro.join.workload;

import dev.faro.fabric.FaroException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.apache.commons.math3.distribution.ZipfDistribution;
import org.apache.commons.math3.random.JDKRandomGenerator;

/**
 * The thesis's input relations (§3.4.1, §4.3.1): an inner relation R of unique keys and an outer relation S of
 * foreign keys, 16-byte tuples, generated independently at every node from a seed.
 *
 * <ul>
 *   <li>R: global tuple {@code i} (of {@code nodes * innerPerNode}) has key {@code i + 1} and rid {@code i}; node
 *       {@code n} holds {@code i} in {@code [n * innerPerNode, (n + 1) * innerPerNode)}, in random order (rids
 *       range-partitioned by node, keys uniform over the partitions).
 *   <li>S: {@code outerRatio} times as many tuples; global tuple {@code j} has rid {@code j} and, uniform, key
 *       {@code (j mod |R|) + 1}, so every inner key has exactly {@code outerRatio} matches (1:N); with
 *       {@code selectivity < 1} that share of S keeps its key and the rest gets a key beyond R's (no match); with
 *       {@code zipf > 0} the keys are Zipf-distributed over R's keys (rank 1 the most frequent, key = rank).
 * </ul>
 *
 * @param innerPerNode R tuples per node (weak scaling: fixed per node)
 * @param outerRatio |S| / |R| (1, 2, 4, 8 in the thesis)
 * @param selectivity the share of S tuples with a match, in (0, 1]
 * @param zipf the Zipf exponent of the outer keys (0: uniform; the thesis uses 1.05 and 1.20)
 * @param seed the seed of the random order and of the Zipf keys
 */
public record JoinWorkload(long innerPerNode, int outerRatio, double selectivity, double zipf, long seed) {

    public JoinWorkload {
        FaroException.checkArgument(innerPerNode >= 1, "innerPerNode must be positive: %d", innerPerNode);
        FaroException.checkArgument(outerRatio >= 1, "outerRatio must be positive: %d", outerRatio);
        if (!(selectivity > 0 && selectivity <= 1)) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT, "selectivity must be in (0, 1]: " + selectivity);
        }
        if (!(zipf == 0 || zipf > 0 && zipf < 10)) {
            throw new FaroException(FaroException.Category.INVALID_ARGUMENT, "zipf must be 0 or in (0, 10): " + zipf);
        }
    }

    /** Uniform 1:N, every outer tuple with a match. */
    public static JoinWorkload uniform(long innerPerNode, int outerRatio, long seed) {
        return new JoinWorkload(innerPerNode, outerRatio, 1.0, 0, seed);
    }

    public long outerPerNode() {
        return innerPerNode * outerRatio;
    }

    /** Node {@code node}'s part of R, allocated in {@code arena}. */
    public MemorySegment inner(Arena arena, int node, int nodes) {
        long count = innerPerNode;
        MemorySegment tuples = arena.allocate(count * Tuples.TUPLE_LENGTH, 64);
        long first = node * innerPerNode;
        for (long k = 0; k < count; k++) {
            Tuples.set(tuples, k, first + k + 1, first + k);
        }
        shuffle(tuples, count, new SplittableRandom(seed * 31 + node));
        return tuples;
    }

    /** Node {@code node}'s part of S, allocated in {@code arena}. */
    public MemorySegment outer(Arena arena, int node, int nodes) {
        long count = outerPerNode();
        long innerTotal = innerPerNode * nodes;
        MemorySegment tuples = arena.allocate(count * Tuples.TUPLE_LENGTH, 64);
        long first = node * count;
        SplittableRandom random = new SplittableRandom(seed * 131 + node + 7);
        ZipfDistribution zipfKeys = null;
        if (zipf > 0) {
            JDKRandomGenerator generator = new JDKRandomGenerator();
            generator.setSeed(seed * 1_000_003L + node);
            zipfKeys = new ZipfDistribution(generator, (int) Math.min(Integer.MAX_VALUE, innerTotal), zipf);
        }
        long matching = Math.round(selectivity * 1_000_000);
        for (long k = 0; k < count; k++) {
            long j = first + k;
            long key = zipfKeys != null ? zipfKeys.sample() : j % innerTotal + 1;
            if (matching < 1_000_000 && Math.floorMod(j * 0x9E3779B97F4A7C15L >>> 20, 1_000_000L) >= matching) {
                key = innerTotal + 1 + j;
            }
            Tuples.set(tuples, k, key, j);
        }
        shuffle(tuples, count, random);
        return tuples;
    }

    private static void shuffle(MemorySegment tuples, long count, SplittableRandom random) {
        for (long i = count - 1; i > 0; i--) {
            long j = random.nextLong(i + 1);
            long key = Tuples.key(tuples, i);
            long rid = Tuples.rid(tuples, i);
            Tuples.set(tuples, i, Tuples.key(tuples, j), Tuples.rid(tuples, j));
            Tuples.set(tuples, j, key, rid);
        }
    }
}
