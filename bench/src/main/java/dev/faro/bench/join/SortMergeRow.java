package dev.faro.bench.join;

import dev.faro.join.model.SortMergeJoinModel;
import dev.faro.join.workload.Tuples;
import java.util.List;

/**
 * One sort-merge join point of {@code faro bench join}, with the radix hash join of the same point (its largest k)
 * beside it. The phases sit in {@link dev.faro.join.radix.PhaseTimes}' slots: range partitioning as histogram, sort
 * and transfer as the network pass (compute, put, wait), merge as the local pass, match as build-probe.
 *
 * @param workload the workload's name
 * @param nodes N
 * @param threads T
 * @param bandwidthCap the emulated bandwidth per node (0: none)
 * @param measured the sort-merge join
 * @param radix the radix hash join at the same point
 * @param rates the sort-merge micro-benchmarks of this point (N x T threads at once, each on one join thread's share
 *     in the join's N x T key ranges), per wall second of the phase (first thread's start to last thread's end)
 * @param cpuRates the same per CPU second
 * @param bandwidthCurve the fabric's bandwidth against message size, (bytes, bytes per second), measured before the
 *     runs (empty on one node)
 */
record SortMergeRow(
        String workload,
        int nodes,
        int threads,
        long bandwidthCap,
        JoinPoint measured,
        JoinRow radix,
        SortMergeRates rates,
        SortMergeRates cpuRates,
        List<double[]> bandwidthCurve) {

    /** The thesis's model (Eqs. 3.12–3.20) for this point, fed by {@link #rates} and the bandwidth at the run size. */
    SortMergeJoinModel model(int runTuples) {
        double bandwidth = measured.bandwidthBytesPerSecond() > 0
                ? measured.bandwidthBytesPerSecond() / Tuples.TUPLE_LENGTH
                : Double.MAX_VALUE / 4;
        return model(runTuples, rates, bandwidth);
    }

    /**
     * The same model per thread in CPU seconds: fed by {@link #cpuRates}, without a network term (waiting costs no
     * CPU), to compare with the phases' mean per-thread CPU times.
     */
    SortMergeJoinModel cpuModel(int runTuples) {
        return model(runTuples, cpuRates, Double.MAX_VALUE / 4);
    }

    private SortMergeJoinModel model(int runTuples, SortMergeRates rates, double bandwidth) {
        long inner =
                measured.tuples() / (1 + JoinWorkloads.parse(workload, 1, 1).outerRatio());
        return new SortMergeJoinModel(
                nodes,
                threads,
                inner,
                measured.tuples() - inner,
                runTuples,
                Math.max(2, rates.fanIn()),
                rates.scan(),
                rates.partition(),
                rates.sortRun(),
                rates.merge(),
                rates.match(),
                bandwidth);
    }

    /** Whether the sort-merge join's result equals the radix join's and the reference's. */
    boolean correct() {
        return measured.consistent()
                && radix.correct()
                && measured.result().equals(radix.measured().result());
    }

    /** The sort-merge join's time over the radix hash join's (the thesis: about 2 rack-scale, 1.31 on the Cray). */
    double slowdown() {
        return measured.seconds() / radix.measured().seconds();
    }
}
