package dev.faro.bench.shuffle;

import dev.faro.bench.report.Medians;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One bar of {@code faro bench shuffle throughput}: a design at a node count, as the median of its runs, or the
 * reason it could not be measured.
 *
 * @param design the endpoint design
 * @param nodes worker processes taking part
 * @param runs timed runs the medians are taken over (0 if it failed)
 * @param gigabytesPerSecond median receive throughput per node, GB/s (1e9 bytes per second): bytes received per node
 *     divided by the response time (TODS19 §7.1)
 * @param megaTuplesPerSecond the same in millions of 16-byte tuples per second
 * @param minGigabytesPerSecond the slowest run
 * @param maxGigabytesPerSecond the fastest run
 * @param bytesPerNode bytes each node received per run
 * @param responseSeconds median response time: the longest node's time from open to end of stream
 * @param failure why the design could not be measured, or empty
 */
public record ThroughputResult(
        EndpointDesign design,
        int nodes,
        int runs,
        double gigabytesPerSecond,
        double megaTuplesPerSecond,
        double minGigabytesPerSecond,
        double maxGigabytesPerSecond,
        double bytesPerNode,
        double responseSeconds,
        String failure) {

    public ThroughputResult {
        Objects.requireNonNull(design, "design is null");
        Objects.requireNonNull(failure, "failure is null");
    }

    /** Aggregates the timed runs of one design at one node count; every run must have succeeded. */
    static ThroughputResult of(EndpointDesign design, int nodes, List<CaseOutcome> outcomes) {
        if (outcomes.isEmpty()) {
            throw new IllegalArgumentException("no runs for " + design.paperName() + " at " + nodes + " nodes");
        }
        double[] gigabytes = outcomes.stream()
                .mapToDouble(o -> o.receiveBytesPerNodePerSecond() / 1e9)
                .toArray();
        double[] seconds =
                outcomes.stream().mapToDouble(o -> o.responseNanos() / 1e9).toArray();
        double median = Medians.of(gigabytes);
        return new ThroughputResult(
                design,
                nodes,
                outcomes.size(),
                median,
                median * 1e9 / ShuffleTuples.TUPLE_BYTES / 1e6,
                Arrays.stream(gigabytes).min().orElseThrow(),
                Arrays.stream(gigabytes).max().orElseThrow(),
                outcomes.get(0).bytesPerNode(),
                Medians.of(seconds),
                "");
    }

    /** A design that could not be measured at this node count. */
    static ThroughputResult failed(EndpointDesign design, int nodes, String reason) {
        return new ThroughputResult(
                design,
                nodes,
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
}
