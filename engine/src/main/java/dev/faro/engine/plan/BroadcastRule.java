package dev.faro.engine.plan;

/**
 * VLDB16 §3.1's rule for a distributed join: broadcast the smaller input, or hash-partition both. With {@code u}
 * parallel units, each unit holding 1/u of both inputs, a broadcast sends every row of the smaller input S to the
 * u − 1 other units, S·(u − 1) in all; a repartition sends (u − 1)/u of both inputs, (S + L)·(u − 1)/u. The broadcast
 * sends less exactly when L / S > u − 1. A classic exchange's units are the n·t threads (the paper's 6 × 40: 239), a
 * decoupled exchange's the n servers (5): so hybrid parallelism broadcasts at far smaller size ratios. Pure function;
 * coordination code.
 */
public final class BroadcastRule {

    private BroadcastRule() {}

    /**
     * Whether broadcasting the smaller input sends fewer bytes than repartitioning both.
     *
     * @param smallerBytes the (estimated) size of the input that would be broadcast, > 0
     * @param largerBytes the size of the other input, > 0
     * @param parallelUnits the exchange's parallel units, ≥ 1
     */
    public static boolean broadcasts(double smallerBytes, double largerBytes, long parallelUnits) {
        if (!(smallerBytes > 0)
                || !(largerBytes > 0)
                || Double.isInfinite(smallerBytes)
                || Double.isInfinite(largerBytes)) {
            throw new IllegalArgumentException(
                    "sizes must be positive and finite: smaller=" + smallerBytes + " larger=" + largerBytes);
        }
        return largerBytes / smallerBytes > threshold(parallelUnits);
    }

    /** The size ratio above which a broadcast pays: u − 1. */
    public static long threshold(long parallelUnits) {
        if (parallelUnits < 1) {
            throw new IllegalArgumentException("parallel units must be positive: " + parallelUnits);
        }
        return parallelUnits - 1;
    }

    /** Bytes a broadcast of {@code smallerBytes} sends over {@code parallelUnits} units: S·(u − 1). */
    public static double broadcastBytes(double smallerBytes, long parallelUnits) {
        return smallerBytes * threshold(parallelUnits);
    }

    /** Bytes a repartition of both inputs sends over {@code parallelUnits} units: (S + L)·(u − 1)/u. */
    public static double repartitionBytes(double smallerBytes, double largerBytes, long parallelUnits) {
        return (smallerBytes + largerBytes) * threshold(parallelUnits) / parallelUnits;
    }
}
