package dev.faro.bench.experiment;

import java.util.Objects;

/**
 * What a {@link Trial} measured: medians over its timed runs, or why it has no numbers. Immutable.
 *
 * @param trial the trial (with the scans it ran with)
 * @param runs timed runs the medians are taken over (0 without numbers)
 * @param gigabytesPerSecond median receive throughput per node, GB/s (1e9 bytes per second)
 * @param minGigabytesPerSecond the slowest run
 * @param maxGigabytesPerSecond the fastest run
 * @param responseSeconds median response time (the longest node's, setup excluded)
 * @param setupMillis median setup time (open plus close of the endpoints, the slowest node's); NaN for MPI
 * @param bytesPerNode bytes each node received per run
 * @param failure empty, {@code skipped: why}, or what went wrong
 * @param creditWritesPerMebibyte median credit write-backs per MiB received (0 without credit writes)
 * @param sendBlockedFraction median share of the SHUFFLE threads' time blocked for a buffer or credit (0: not counted)
 * @param receiveBlockedFraction median share of the RECEIVE threads' time blocked for data (0: not counted)
 * @param ownOpenMillis median of the open without the address exchange (the node's own work: queue pairs,
 *     registration, connection), the slowest node's; NaN where not measured
 */
public record TrialResult(
        Trial trial,
        int runs,
        double gigabytesPerSecond,
        double minGigabytesPerSecond,
        double maxGigabytesPerSecond,
        double responseSeconds,
        double setupMillis,
        double bytesPerNode,
        String failure,
        double creditWritesPerMebibyte,
        double sendBlockedFraction,
        double receiveBlockedFraction,
        double ownOpenMillis) {

    /** A result without resource counters. */
    public TrialResult(
            Trial trial,
            int runs,
            double gigabytesPerSecond,
            double minGigabytesPerSecond,
            double maxGigabytesPerSecond,
            double responseSeconds,
            double setupMillis,
            double bytesPerNode,
            String failure) {
        this(
                trial,
                runs,
                gigabytesPerSecond,
                minGigabytesPerSecond,
                maxGigabytesPerSecond,
                responseSeconds,
                setupMillis,
                bytesPerNode,
                failure,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN);
    }

    public TrialResult {
        Objects.requireNonNull(trial, "trial is null");
        Objects.requireNonNull(failure, "failure is null");
    }

    /** A trial without numbers. */
    static TrialResult without(Trial trial, String reason) {
        return new TrialResult(
                trial,
                0,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                reason.isEmpty() ? "failed" : reason);
    }

    public boolean succeeded() {
        return failure.isEmpty();
    }

    /** Whether the trial was not run on purpose (e.g. Open MPI is missing). */
    public boolean skipped() {
        return failure.startsWith("skipped");
    }
}
