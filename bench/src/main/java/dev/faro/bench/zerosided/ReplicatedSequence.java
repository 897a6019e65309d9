package dev.faro.bench.zerosided;

import java.util.Locale;

/**
 * What one consumer of a replication flow saw (V8/V9, over the switch or the DFI-like multicast): a hash of the
 * sequence of item ids (producer in the high bits, its index in the low 40), the count, each producer's share of the
 * first half, and whether each producer's items came in their order. Consumers that saw the same sequence have the
 * same hash and count.
 *
 * <p>Data path: {@link #accept} is allocation-free; one consumer thread writes it, others read it after joining it.
 */
final class ReplicatedSequence {

    /** Bits of an item id that hold its index; the producer is above them. */
    static final int INDEX_BITS = 40;

    private final long total;
    private final long[] next;
    private final long[] firstHalf;
    private long hash = 1;
    private long count;
    private long finishNs;
    private String error;

    /** A consumer of {@code producers}' {@code total} items. */
    ReplicatedSequence(int producers, long total) {
        this.total = total;
        this.next = new long[producers];
        this.firstHalf = new long[producers];
    }

    static long id(int producer, long index) {
        return (long) producer << INDEX_BITS | index;
    }

    void accept(long id) {
        int producer = (int) (id >>> INDEX_BITS);
        if ((id & ((1L << INDEX_BITS) - 1)) != next[producer]++ && error == null) {
            error = "producer " + producer + "'s items out of order";
        }
        if (count < total / 2) {
            firstHalf[producer]++;
        }
        hash = hash * 1_000_003 + id;
        count++;
    }

    /** The consumer is done (its last item arrived). */
    void finish() {
        finishNs = System.nanoTime();
    }

    /** Records a failure of this consumer (it stalled, or its flow failed). */
    void fail(String reason) {
        if (error == null) {
            error = reason;
        }
    }

    long count() {
        return count;
    }

    /**
     * Throws when any consumer failed, saw a producer's items out of their order, or did not see every item (a lost
     * tail would otherwise pass where the order is not checked across producers).
     */
    static void check(String series, ReplicatedSequence[] consumers) {
        for (int c = 0; c < consumers.length; c++) {
            if (consumers[c].error != null) {
                throw new IllegalStateException(series + " consumer " + c + ": " + consumers[c].error);
            }
            if (consumers[c].count != consumers[c].total) {
                throw new IllegalStateException(series + " consumer " + c + ": saw " + consumers[c].count + " of "
                        + consumers[c].total + " items");
            }
        }
    }

    /** Whether every consumer saw every item, in one and the same sequence. */
    static boolean identical(ReplicatedSequence[] consumers) {
        boolean same = true;
        for (ReplicatedSequence consumer : consumers) {
            same &= consumer.hash == consumers[0].hash && consumer.count == consumer.total;
        }
        return same;
    }

    /** MB/s of each consumer from {@code startNs} to its finish, "a / b / c". */
    static String rates(ReplicatedSequence[] consumers, int itemBytes, long startNs) {
        StringBuilder rates = new StringBuilder();
        for (int c = 0; c < consumers.length; c++) {
            rates.append(c == 0 ? "" : " / ")
                    .append(String.format(Locale.ROOT, "%.1f", consumers[c].rate(itemBytes, startNs)));
        }
        return rates.toString();
    }

    /** The consumers' mean MB/s. */
    static double meanRate(ReplicatedSequence[] consumers, int itemBytes, long startNs) {
        double sum = 0;
        for (ReplicatedSequence consumer : consumers) {
            sum += consumer.rate(itemBytes, startNs);
        }
        return sum / consumers.length;
    }

    private double rate(int itemBytes, long startNs) {
        return count * (double) itemBytes / ((finishNs - startNs) / 1e9) / 1e6;
    }

    /** Each producer's share of the first consumer's first half, "a / b / c". */
    static String shares(ReplicatedSequence[] consumers) {
        ReplicatedSequence first = consumers[0];
        StringBuilder shares = new StringBuilder();
        for (int p = 0; p < first.firstHalf.length; p++) {
            shares.append(p == 0 ? "" : " / ")
                    .append(String.format(Locale.ROOT, "%.3f", first.firstHalf[p] / (double) (first.total / 2)));
        }
        return shares.toString();
    }
}
