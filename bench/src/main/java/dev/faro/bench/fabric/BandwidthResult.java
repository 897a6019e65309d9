package dev.faro.bench.fabric;

import dev.faro.bench.report.Medians;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One point of {@code faro bench fabric}: an operation at a message size, as the median of its runs, beside the
 * memcpy baseline measured in the same runs.
 *
 * @param operation what was measured
 * @param sizeBytes the message size
 * @param runs how many timed runs the medians are taken over
 * @param gigabytesPerSecond median bandwidth of the operation, GB/s (1e9 bytes per second)
 * @param megaMessagesPerSecond median message rate of the operation, millions per second
 * @param memcpyGigabytesPerSecond median single-thread memcpy bandwidth, GB/s
 * @param minGigabytesPerSecond the slowest run of the operation
 * @param maxGigabytesPerSecond the fastest run of the operation
 * @param counters what the initiator and the target counted while the point ran
 */
public record BandwidthResult(
        FabricOperation operation,
        int sizeBytes,
        int runs,
        double gigabytesPerSecond,
        double megaMessagesPerSecond,
        double memcpyGigabytesPerSecond,
        double minGigabytesPerSecond,
        double maxGigabytesPerSecond,
        Counters counters) {

    /**
     * Counters of one point.
     *
     * @param initiatorPolls completion-queue polls by the initiator in the timed runs
     * @param creditWaits times the initiator ran out of credit in the timed runs (two-sided only)
     * @param creditWrites credit WRITEs by the target over the whole point, warm-up included (two-sided only)
     * @param receivesCompleted receives the target completed over the whole point (two-sided only)
     * @param udDrops UD SENDs that found no posted receive at the target (should be 0: credit prevents them)
     * @param receiverNotReadyRetries RC SENDs that found no posted receive and were retried by the provider
     */
    public record Counters(
            long initiatorPolls,
            long creditWaits,
            long creditWrites,
            long receivesCompleted,
            long udDrops,
            long receiverNotReadyRetries) {

        public static final Counters NONE = new Counters(0, 0, 0, 0, 0, 0);
    }

    public BandwidthResult {
        Objects.requireNonNull(operation, "operation is null");
        Objects.requireNonNull(counters, "counters is null");
        if (sizeBytes <= 0 || runs <= 0) {
            throw new IllegalArgumentException("sizeBytes and runs must be positive: " + sizeBytes + ", " + runs);
        }
    }

    /** The operation's bandwidth as a fraction of memcpy's. */
    public double ratioToMemcpy() {
        return gigabytesPerSecond / memcpyGigabytesPerSecond;
    }

    /** Aggregates the runs of one point: medians, extremes and summed initiator counters. */
    static BandwidthResult of(
            FabricOperation operation,
            int sizeBytes,
            List<RunSample> samples,
            long creditWrites,
            long receivesCompleted,
            long udDrops,
            long receiverNotReadyRetries) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no runs for " + operation.label() + " at " + sizeBytes + " B");
        }
        double[] bandwidth = samples.stream()
                .mapToDouble(s -> s.operation().gigabytesPerSecond())
                .toArray();
        double[] rate = samples.stream()
                .mapToDouble(s -> s.operation().megaMessagesPerSecond())
                .toArray();
        double[] memcpy = samples.stream()
                .mapToDouble(s -> s.memcpy().gigabytesPerSecond())
                .toArray();
        long polls = samples.stream().mapToLong(s -> s.operation().polls()).sum();
        long creditWaits =
                samples.stream().mapToLong(s -> s.operation().creditWaits()).sum();
        return new BandwidthResult(
                operation,
                sizeBytes,
                samples.size(),
                Medians.of(bandwidth),
                Medians.of(rate),
                Medians.of(memcpy),
                Arrays.stream(bandwidth).min().orElseThrow(),
                Arrays.stream(bandwidth).max().orElseThrow(),
                new Counters(polls, creditWaits, creditWrites, receivesCompleted, udDrops, receiverNotReadyRetries));
    }
}
