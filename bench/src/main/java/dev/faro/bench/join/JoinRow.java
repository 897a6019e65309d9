package dev.faro.bench.join;

import dev.faro.join.model.RadixJoinModel;
import dev.faro.join.radix.PhaseTimes;
import dev.faro.join.workload.Tuples;

/**
 * One row of {@code faro bench join}: the distributed join at one point, the single-process reference on the same
 * total cores, whose per-thread phase rates feed the model ({@link #sameCoresRate}), and the per-core rates of one
 * thread alone on one node's data (shown beside the thesis's).
 *
 * @param workload the workload's name
 * @param scaling {@code weak} or {@code strong} ({@link JoinBenchConfig#scalings})
 * @param nodes N
 * @param threads T, per node
 * @param buffers k
 * @param bandwidthCap the emulated bandwidth per node, bytes per second (0: the fabric's own)
 * @param measured the distributed join
 * @param reference the single-process radix join, N x T threads, the same data
 * @param rates the single-process join on one thread and one node's data (the per-core rates table)
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
     * The same ratio with the window allocation taken out of both times: the distributed join's window phase
     * (registering and faulting in its windows and buffers, the local pass's scratch) and the reference's allocation
     * of the same memory (its first pass's output and scratch, zeroed), so that the ratio compares the join's work
     * alone. {@link #ratio} keeps both in, as the thesis's join time keeps window allocation (its phase ii).
     */
    double ratioWithoutWindows() {
        double seconds = measured.seconds() - measured.mean().windowNanos() / 1e9;
        double referenceSeconds = reference.seconds() - reference.mean().windowNanos() / 1e9;
        return measured.tuples() / seconds / (reference.tuples() / referenceSeconds);
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

    /**
     * Per-thread rate of a phase of the single-process join at this point ({@code N x T} threads on all nodes' data),
     * in tuples per second, from the phase's best run (the thesis's convention: a micro-benchmark's peak, so that the
     * model is a lower bound): the rate a thread reaches on this host while every other thread of the point runs
     * too. The one-thread run alone has the shared cache and memory bandwidth to itself (and with {@code N x T} above
     * the host's cores, a core of its own), so its rates overstate what each thread of the distributed join can do;
     * this one measures the same kernels on the same per-thread share (one node's data over {@code T} threads), the
     * same fan-outs, with a warm JIT, under the same load.
     */
    double sameCoresRate(long nanos) {
        return rate(reference, nanos) / ((double) nodes * threads);
    }

    /**
     * The same per-thread rate per CPU second: a thread's share of the tuples over its CPU time in the phase's best
     * run ({@code cpuNanos}, the mean over the reference's threads).
     */
    double sameCoresCpuRate(long cpuNanos) {
        return cpuNanos <= 0 ? Double.NaN : reference.tuples() / ((double) nodes * threads) / (cpuNanos / 1e9);
    }

    /** The network pass at the partition rate alone (no transfer; {@link #sameCoresRate}), per node, in seconds. */
    double computeSeconds() {
        return measured.tuples()
                / (double) nodes
                / threads
                / sameCoresRate(reference.best().networkNanos());
    }

    /** The bytes each node put, over the measured bandwidth, in seconds (NaN when not measured). */
    double transferSeconds() {
        double bandwidth = measured.bandwidthBytesPerSecond();
        return bandwidth > 0 ? measured.mean().bytesPut() / (double) nodes / bandwidth : Double.NaN;
    }

    /**
     * The thesis's model (Eqs. 3.1–3.11) for this point, in wall seconds: the peak per-thread rates of the
     * single-process join on the same total cores ({@link #sameCoresRate}) and the measured bandwidth.
     */
    RadixJoinModel model() {
        double bandwidth = measured.bandwidthBytesPerSecond() > 0
                ? measured.bandwidthBytesPerSecond() / Tuples.TUPLE_LENGTH
                : Double.MAX_VALUE / 4;
        PhaseTimes best = reference.best();
        // the local pass's rate comes from the reference's local pass when it had one, else from its first pass
        long localPass = reference.passes() > 1 ? best.localPartitionNanos() : best.networkNanos();
        return new RadixJoinModel(
                nodes,
                threads,
                measured.tuples(), // every equation uses |R| + |S| only
                0,
                sameCoresRate(best.histogramScanNanos()),
                sameCoresRate(best.networkNanos()),
                sameCoresRate(localPass),
                sameCoresRate(best.buildProbeNanos()),
                bandwidth,
                measured.passes());
    }

    /**
     * The same model per thread in CPU seconds: the peak per-thread rates per CPU second ({@link #sameCoresCpuRate}),
     * and no network term (waiting for the network costs no CPU), so each phase's value is a thread's CPU time at
     * the kernel's peak rate, to compare with the phases' mean per-thread CPU times.
     */
    RadixJoinModel cpuModel() {
        PhaseTimes best = reference.best();
        long localPass = reference.passes() > 1 ? best.localPartitionCpuNanos() : best.networkCpuNanos();
        return new RadixJoinModel(
                nodes,
                threads,
                measured.tuples(),
                0,
                sameCoresCpuRate(best.histogramCpuNanos()),
                sameCoresCpuRate(best.networkCpuNanos()),
                sameCoresCpuRate(localPass),
                sameCoresCpuRate(best.buildProbeCpuNanos()),
                Double.MAX_VALUE / 4,
                measured.passes());
    }
}
