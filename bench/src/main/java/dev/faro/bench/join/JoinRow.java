package dev.faro.bench.join;

import dev.faro.join.model.RadixJoinModel;
import dev.faro.join.workload.Tuples;

/**
 * One row of {@code faro bench join}: the distributed join at one point, the single-process reference on the same
 * total cores, and the per-core rates (one thread, one node's data) that feed the model.
 *
 * @param workload the workload's name
 * @param scaling {@code weak} or {@code strong} ({@link JoinBenchConfig#scalings})
 * @param nodes N
 * @param threads T, per node
 * @param buffers k
 * @param bandwidthCap the emulated bandwidth per node, bytes per second (0: the fabric's own)
 * @param measured the distributed join
 * @param reference the single-process radix join, N x T threads, the same data
 * @param rates the single-process join on one thread and one node's data
 */
record JoinRow(
        String workload,
        String scaling,
        int nodes,
        int threads,
        int buffers,
        long bandwidthCap,
        JoinPoint measured,
        JoinPoint reference,
        JoinPoint rates) {

    /** Whether the distributed join's result equals the reference's at every node and run. */
    boolean correct() {
        return measured.consistent()
                && reference.consistent()
                && measured.result().equals(reference.result());
    }

    /** Distributed throughput over the single-process join's on the same total cores. */
    double ratio() {
        return measured.tuplesPerSecond() / reference.tuplesPerSecond();
    }

    /**
     * The same ratio with the window allocation taken out of the distributed join's time: the single-process join
     * allocates its partition buffers before its timer starts, the distributed one registers its windows inside its
     * timer (a phase of the thesis), so this is the like-for-like comparison of the join's work.
     */
    double ratioWithoutWindows() {
        double seconds = measured.seconds() - measured.mean().windowNanos() / 1e9;
        return measured.tuples() / seconds / reference.tuplesPerSecond();
    }

    /**
     * The ratio per CPU second: {@link #ratio} times the reference's CPU share over the distributed join's (mean over
     * nodes), so that a distributed join whose threads got less of the cores on a loaded host is not charged for it.
     */
    double ratioPerCpu() {
        return ratio() * reference.cpuShare() / measured.cpuShare();
    }

    /** Per-thread rate of a phase of the one-thread run, in tuples per second. */
    static double rate(JoinPoint point, long nanos) {
        return nanos <= 0 ? Double.NaN : point.tuples() / (nanos / 1e9);
    }

    /** The network pass at the one-thread partition rate alone (no transfer), per node, in seconds. */
    double computeSeconds() {
        return measured.tuples()
                / (double) nodes
                / threads
                / rate(rates, rates.mean().networkNanos());
    }

    /** The bytes each node put, over the measured bandwidth, in seconds (NaN when not measured). */
    double transferSeconds() {
        double bandwidth = measured.bandwidthBytesPerSecond();
        return bandwidth > 0 ? measured.mean().bytesPut() / (double) nodes / bandwidth : Double.NaN;
    }

    /** The thesis's model (Eqs. 3.1–3.11) for this point, from the measured rates and bandwidth. */
    RadixJoinModel model() {
        double bandwidth = measured.bandwidthBytesPerSecond() > 0
                ? measured.bandwidthBytesPerSecond() / Tuples.TUPLE_LENGTH
                : Double.MAX_VALUE / 4;
        // the local pass's rate comes from the one-thread run when it had a local pass too, else from its first pass
        long localPass = rates.passes() > 1
                ? rates.mean().localPartitionNanos()
                : rates.mean().networkNanos();
        return new RadixJoinModel(
                nodes,
                threads,
                measured.tuples(), // every equation uses |R| + |S| only
                0,
                rate(rates, rates.mean().histogramNanos()),
                rate(rates, rates.mean().networkNanos()),
                rate(rates, localPass),
                rate(rates, rates.mean().buildProbeNanos()),
                bandwidth,
                measured.passes());
    }
}
