package dev.faro.hyper;

import dev.faro.shuffle.operator.Partitioner;

/**
 * VLDB16 §3.1's skew argument as arithmetic: keys 1…N drawn with Zipf probabilities (key k has weight k^−z) are
 * hash-partitioned into P partitions exactly as the shuffle's long-key partitioner does ({@link Partitioner#mix},
 * then modulo P), and the most loaded partition's expected share is compared with the fair share 1/P. The paper: at
 * z = 0.84 a classic exchange's 240 parallel units (6 servers × 40 threads) give the most loaded unit more than twice
 * its share, hybrid parallelism's 6 units (servers, with work stealing inside each) only 2.8 % more.
 *
 * <p>Expected loads, not samples, so the result has no sampling noise: the {@link #EXACT_KEYS} heaviest keys are
 * hashed one by one; the weight of the remaining tail (each key lighter than the last exact one) is computed in closed
 * form (the midpoint rule for Σ k^−z) and spread evenly, which its many light keys do up to a negligible variance.
 * Coordination code.
 */
public final class PartitionSkew {

    /** How many of the heaviest keys are hashed one by one; the lighter tail is spread evenly. */
    public static final int EXACT_KEYS = 10_000_000;

    private PartitionSkew() {}

    /**
     * The most loaded partition's expected load over the fair share, for each partition count.
     *
     * @param zipf the Zipf exponent z ≥ 0 (0: uniform)
     * @param domain the number of distinct keys N ≥ 1
     * @param partitionCounts partition counts P ≥ 1
     * @return max/fair per partition count, in the given order (1.0 means perfectly even)
     */
    public static double[] maxOverFair(double zipf, long domain, int... partitionCounts) {
        if (!(zipf >= 0) || Double.isInfinite(zipf)) {
            throw new IllegalArgumentException("the Zipf exponent must be finite and >= 0: " + zipf);
        }
        if (domain < 1) {
            throw new IllegalArgumentException("the key domain must be positive: " + domain);
        }
        double[][] loads = new double[partitionCounts.length][];
        for (int i = 0; i < partitionCounts.length; i++) {
            if (partitionCounts[i] < 1) {
                throw new IllegalArgumentException("partition counts must be positive: " + partitionCounts[i]);
            }
            loads[i] = new double[partitionCounts[i]];
        }
        long exact = Math.min(domain, EXACT_KEYS);
        double head = 0;
        for (long key = 1; key <= exact; key++) {
            double weight = Math.pow(key, -zipf);
            head += weight;
            long hash = Partitioner.mix(key);
            for (int i = 0; i < loads.length; i++) {
                loads[i][(int) Long.remainderUnsigned(hash, loads[i].length)] += weight;
            }
        }
        double tail = tailWeight(zipf, exact, domain);
        double total = head + tail;
        double[] result = new double[partitionCounts.length];
        for (int i = 0; i < loads.length; i++) {
            double max = 0;
            for (double load : loads[i]) {
                max = Math.max(max, load);
            }
            int partitions = loads[i].length;
            result[i] = (max + tail / partitions) / (total / partitions);
        }
        return result;
    }

    /** Σ k^−z for k in (from, to], by the midpoint rule ∫ x^−z dx over [from + ½, to + ½]. */
    static double tailWeight(double zipf, long from, long to) {
        if (to <= from) {
            return 0;
        }
        double a = from + 0.5;
        double b = to + 0.5;
        if (Math.abs(zipf - 1) < 1e-12) {
            return Math.log(b / a);
        }
        return (Math.pow(b, 1 - zipf) - Math.pow(a, 1 - zipf)) / (1 - zipf);
    }
}
